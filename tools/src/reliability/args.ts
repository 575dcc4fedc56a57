/**
 * fast-check arbitraries of arguments for every tool, built from each tool's advertised input
 * schema: mostly plausible values with wrong types, missing and extra fields, huge strings and
 * arrays, unicode, negative and enormous numbers, offset where a cursor is due, malformed UUIDs,
 * and credential-shaped and withheld settings keys.
 */
import {
  CREDENTIAL_WORDS,
  classifySettingsKey,
  RUNTIME_ID_PATTERN,
  SETTINGS_KEYS_WITHHELD,
  SETTINGS_KEYS_WRITABLE,
  TOOL_BY_NAME,
  type ToolName,
  toolsListEntries,
} from "@resmon/mcp-contract";
import fc from "fast-check";
import { CANARY_VALUES } from "./canaries.js";

/** Replaced at call time by the running stand-in's runtime id. */
export const KIT_RUNTIME = "$KIT_RUNTIME";

type Arb = fc.Arbitrary<unknown>;

/**
 * 100 KB to ~2 MB on the wire. (A single JSON-RPC line over the SDK's 10 MiB stdio buffer ends the
 * session instead; the protocol group covers that on its own.)
 */
const hugeString: Arb = fc
  .tuple(fc.integer({ min: 25_000, max: 500_000 }), fc.constantFrom("x", "é", "𝛼", "\u0000", " ", "\u2028"))
  .map(([n, c]) => c.repeat(c === "\u0000" ? Math.floor(n / 2) : c === "x" || c === " " ? n * 4 : n));

const junk: Arb = fc.oneof(
  { weight: 3, arbitrary: fc.string() },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme" }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary" }) },
  { weight: 2, arbitrary: fc.integer() },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      -1,
      0,
      -0,
      2 ** 53,
      -(2 ** 53),
      1e308,
      -1e308,
      1.5,
      Number.MAX_SAFE_INTEGER + 2,
    ),
  },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.array(fc.jsonValue(), { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom("", " ", "\n", "null", "undefined", "NaN", "[object Object]") },
);

const WORDS = [
  "graph",
  "neural",
  "network",
  "protein",
  "folding",
  "diffusion",
  "model",
  "quantum",
  "cell",
  "climate",
];
/** Short text: words, unicode, odd strings. Array elements use this, so a huge array stays bounded. */
const shortText: Arb = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }).map((w) => w.join(" ")),
  },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", minLength: 1 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", minLength: 1 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "",
      "   ",
      "\u202e\u0000",
      "'; DROP TABLE papers; --",
      "%00%0a",
      "../../etc/passwd",
    ),
  },
);
const text: Arb = fc.oneof({ weight: 10, arbitrary: shortText }, { weight: 1, arbitrary: hugeString });

const id: Arb = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 1, max: 60 }) },
  { weight: 1, arbitrary: fc.integer({ min: -1000, max: 0 }) },
  { weight: 1, arbitrary: fc.constantFrom(2 ** 31, 2 ** 53 - 1, 2 ** 53 + 2, 1e20, 1e308, 1.5, -0.5) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 60 }).map(String) },
);

const pageSize: Arb = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 1, max: 100 }) },
  { weight: 1, arbitrary: fc.constantFrom(0, -1, 101, 121, 1e9, 2.5, 2 ** 53, "25") },
);

const offset: Arb = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 200 }) },
  { weight: 1, arbitrary: fc.constantFrom(-1, -(2 ** 31), 2 ** 53, 1e300, 0.5, "0") },
);

const uuid4: Arb = fc.uuid({ version: 4 });
const runtimeId: Arb = fc.oneof(
  { weight: 3, arbitrary: fc.constant(KIT_RUNTIME) },
  { weight: 2, arbitrary: uuid4 },
  { weight: 1, arbitrary: uuid4.map((u) => String(u).toUpperCase()) },
  { weight: 1, arbitrary: fc.uuid({ version: 1 }) },
  { weight: 1, arbitrary: uuid4.map((u) => String(u).slice(0, 35)) },
  { weight: 1, arbitrary: uuid4.map((u) => `{${String(u)}}`) },
  { weight: 1, arbitrary: uuid4.map((u) => String(u).replaceAll("-", "")) },
  { weight: 1, arbitrary: junk },
);

const date: Arb = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .date({ min: new Date("1990-01-01"), max: new Date("2030-12-31"), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10)),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "2024-13-45",
      "2024-02-30",
      "0000-00-00",
      "2024-1-1",
      "yesterday",
      "2024-01-01T00:00:00Z",
      "９９９９-01-01",
    ),
  },
);

const SLUGS = [
  "arxiv",
  "biorxiv",
  "medrxiv",
  "pubmed",
  "crossref",
  "openalex",
  "springer",
  "ieee",
  "semantic_scholar",
];
const slug: Arb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...SLUGS) },
  { weight: 1, arbitrary: shortText },
);

function list(elem: Arb): Arb {
  return fc.oneof(
    { weight: 8, arbitrary: fc.array(elem, { minLength: 1, maxLength: 5 }) },
    { weight: 1, arbitrary: fc.constant([]) },
    { weight: 1, arbitrary: fc.array(junk, { maxLength: 5 }) },
    // Huge arrays are of small plausible elements: the size is the point.
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 1000, max: 20_000 })
        .chain((n) => fc.array(elem, { minLength: n, maxLength: n, size: "max" })),
    },
  );
}

function enumOf(values: readonly string[]): Arb {
  return fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...values) },
    { weight: 1, arbitrary: fc.constantFrom(...values).map((v) => v.toUpperCase()) },
    { weight: 1, arbitrary: junk },
  );
}

const bool: Arb = fc.oneof(
  { weight: 6, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constantFrom("true", 1, 0, null, "yes") },
);

/** Settings keys: a credential-shaped name (any case, anywhere in the word), withheld, writable, unknown. */
export const credentialShapedKey: fc.Arbitrary<string> = fc
  .tuple(
    fc.string({ unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz_"), maxLength: 8 }),
    fc.constantFrom(...CREDENTIAL_WORDS),
    fc.string({ unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz_"), maxLength: 8 }),
    fc.constantFrom("lower", "upper", "title"),
  )
  .map(([a, w, b, casing]) => {
    const word =
      casing === "upper" ? w.toUpperCase() : casing === "title" ? w[0]?.toUpperCase() + w.slice(1) : w;
    return `${a}${word}${b}`;
  });

const settingsKey: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: credentialShapedKey },
  { weight: 3, arbitrary: fc.constantFrom(...Object.keys(SETTINGS_KEYS_WITHHELD)) },
  { weight: 4, arbitrary: fc.constantFrom(...SETTINGS_KEYS_WRITABLE) },
  {
    weight: 1,
    arbitrary: fc.constantFrom("anthropic_api_key", "openai_api_key", "smtp_password", "cloud_token"),
  },
  { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 20 }) },
);
const settingsValue: Arb = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.constantFrom("claude-sonnet-4-5", "0.2", "true", "false", "none", "always", "30", ""),
  },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme" }) },
  { weight: 1, arbitrary: junk },
);
const settings: Arb = fc.oneof(
  // A credential-shaped name always carries a canary value: it must be refused and never echoed.
  {
    weight: 8,
    arbitrary: fc
      .array(fc.tuple(settingsKey, settingsValue, fc.constantFrom(...CANARY_VALUES)), {
        minLength: 1,
        maxLength: 4,
      })
      .map((pairs) =>
        Object.fromEntries(
          pairs.map(([k, v, c]) => [k, classifySettingsKey(k).class === "credential" ? c : v]),
        ),
      ),
  },
  { weight: 1, arbitrary: fc.constant({}) },
  { weight: 1, arbitrary: junk },
);

const entity: Arb = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record(
      { profile_id: id, mode: enumOf(["new_papers", "retractions"]) },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: junk },
);

const cursor: Arb = fc.oneof(
  fc.base64String({ minLength: 4, maxLength: 40 }),
  fc.string(),
  fc.constantFrom("", "eyJpZCI6IDF9", "MjAyNC0wMS0wMXwx", "0"),
);

/** Field arbitraries by argument name; any other field falls back on its JSON type. */
const FIELDS: Record<string, Arb> = {
  doc_id: id,
  exec_id: id,
  routine_id: id,
  profile_id: id,
  limit: pageSize,
  window: pageSize,
  max_results: pageSize,
  offset,
  expected_runtime_id: runtimeId,
  date_from: date,
  date_to: date,
  sources: list(slug),
  keywords: list(shortText),
  aliases: list(shortText),
  affiliations: list(shortText),
  field_hints: list(shortText),
  doc_ids: list(id),
  settings,
  entity,
  cursor,
  schedule: fc.oneof(fc.constantFrom("0 7 * * 1", "*/5 * * * *", "61 25 * * *", "@daily", "not cron"), text),
  orcid: fc.oneof(fc.constantFrom("0000-0002-1825-0097", "0000-0002-1825-009X", "1234"), text),
};

function byType(schema: Record<string, unknown>): Arb {
  if (Array.isArray(schema.enum)) return enumOf(schema.enum as string[]);
  switch (schema.type) {
    case "boolean":
      return bool;
    case "integer":
    case "number":
      return id;
    case "array":
      return list(shortText);
    default:
      return text;
  }
}

const EXTRA_KEYS = fc.oneof(
  fc.string({ minLength: 1, maxLength: 12 }),
  fc.constantFrom("offset", "page", "api_key", "token", "constructor", "toString", "include", "query"),
);

/** Values the schema accepts, so a share of the calls reaches resmon and answers a success shape. */
const VALID: Record<string, Arb> = {
  doc_id: fc.integer({ min: 1, max: 60 }),
  exec_id: fc.integer({ min: 1, max: 20 }),
  routine_id: fc.integer({ min: 1, max: 6 }),
  profile_id: fc.integer({ min: 1, max: 5 }),
  limit: fc.integer({ min: 1, max: 100 }),
  window: fc.integer({ min: 1, max: 120 }),
  max_results: fc.integer({ min: 1, max: 500 }),
  offset: fc.integer({ min: 0, max: 60 }),
  expected_runtime_id: fc.oneof(
    { weight: 4, arbitrary: fc.constant(KIT_RUNTIME) },
    { weight: 1, arbitrary: uuid4 },
  ),
  date_from: fc.constantFrom("2020-01-01", "2023-06-15", "2025-01-01"),
  date_to: fc.constantFrom("2024-12-31", "2026-12-31"),
  sources: fc.uniqueArray(fc.constantFrom(...SLUGS), { minLength: 1, maxLength: 3 }),
  keywords: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
  query: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((w) => w.join(" ")),
  doc_ids: fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 10 }),
  settings: fc.dictionary(
    fc.constantFrom(
      "ai_model",
      "ai_temperature",
      "assistant_model",
      "notify_manual",
      "pdf_policy",
      "embedding_model",
    ),
    fc.constantFrom("claude-sonnet-4-5", "0.3", "true", "always"),
    { minKeys: 1, maxKeys: 2 },
  ),
  entity: fc.record({
    profile_id: fc.integer({ min: 1, max: 5 }),
    mode: fc.constantFrom("new_papers", "retractions"),
  }),
  schedule: fc.constantFrom("0 7 * * 1", "*/30 * * * *"),
  orcid: fc.constant("0000-0002-1825-0097"),
};

function validFor(field: string, schema: Record<string, unknown>): Arb | null {
  if (field === "cursor") return null;
  if (VALID[field]) return VALID[field];
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as string[]));
  if (schema.type === "boolean") return fc.boolean();
  if (schema.type === "array") return fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 });
  if (schema.type === "string") return fc.constantFrom(...WORDS);
  return null;
}

/** Arguments the schema accepts: required fields always, optional ones sometimes. */
function validArgs(props: Record<string, Record<string, unknown>>, required: string[]) {
  const fields: Record<string, Arb> = {};
  for (const [field, schema] of Object.entries(props)) {
    const arb = validFor(field, schema);
    if (arb) fields[field] = arb;
  }
  return fc.record(fields, { requiredKeys: required.filter((f) => f in fields) });
}

/**
 * Arguments for one tool: a third plausible and valid, the rest messy — each field present or
 * not, plausible or junk, sometimes extra keys (and offset on search_corpus).
 */
export function argsFor(name: ToolName): fc.Arbitrary<Record<string, unknown>> {
  return fc.oneof(
    { weight: 1, arbitrary: validArgs(propsOf(name), requiredOf(name)) },
    { weight: 2, arbitrary: messyArgs(name) },
  );
}

function propsOf(name: ToolName): Record<string, Record<string, unknown>> {
  const entry = toolsListEntries().find((t) => t.name === name);
  return (entry?.inputSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
}

function requiredOf(name: ToolName): string[] {
  const entry = toolsListEntries().find((t) => t.name === name);
  return (entry?.inputSchema.required ?? []) as string[];
}

function messyArgs(name: ToolName): fc.Arbitrary<Record<string, unknown>> {
  const props = propsOf(name);
  const fields: Record<string, Arb> = {};
  for (const [field, schema] of Object.entries(props)) {
    fields[field] = fc.oneof(
      { weight: 9, arbitrary: FIELDS[field] ?? byType(schema) },
      { weight: 1, arbitrary: junk },
    );
  }
  const required = requiredOf(name);
  // Required fields are present more often than not, so many calls get past validation.
  const base = fc
    .tuple(
      fc.record(fields, { requiredKeys: [] }),
      fc.record(Object.fromEntries(required.map((f) => [f, fields[f] as Arb])), { requiredKeys: [] }),
    )
    .map(([a, b]) => ({ ...a, ...b }));
  const extras = fc.option(fc.dictionary(EXTRA_KEYS, junk, { minKeys: 1, maxKeys: 2 }), { freq: 8 });
  const offsetForCursor = name === "search_corpus" ? fc.option(offset, { freq: 6 }) : fc.constant(null);
  return fc.tuple(base, extras, offsetForCursor).map(([args, extra, off]) => {
    const out: Record<string, unknown> = { ...args, ...(extra ?? {}) };
    if (off !== null) out.offset = off;
    return out;
  });
}

const UUID4 = RUNTIME_ID_PATTERN;

/**
 * Refusals the spec places before any request: arguments that fail the tool's own schema
 * (offset on search_corpus, a malformed expected_runtime_id), and credential-shaped or withheld
 * settings names. Returns why, or null when the call may reach resmon.
 */
export function refusedBeforeRequest(name: ToolName, args: Record<string, unknown>): string | null {
  if (name === "search_corpus" && Object.hasOwn(args, "offset")) return "offset on search_corpus";
  const parsed = TOOL_BY_NAME[name].input.safeParse(args);
  if (!parsed.success) return "arguments fail the input schema";
  const rid = args.expected_runtime_id;
  if (rid !== undefined && (typeof rid !== "string" || !UUID4.test(rid)))
    return "malformed expected_runtime_id";
  if (name === "update_settings") {
    const keys = Object.keys((args.settings ?? {}) as Record<string, unknown>);
    if (keys.some((k) => classifySettingsKey(k).class === "credential"))
      return "credential-shaped settings key";
    if (keys.some((k) => classifySettingsKey(k).class === "withheld")) return "withheld settings key";
  }
  return null;
}
