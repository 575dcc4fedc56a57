/**
 * The contract's version rules (contract/README.md, "How a change is made"), as code.
 *
 * A surface is what a caller may rely on: the tools and their class, each argument's name,
 * required-ness and accepted values, each success shape, the settings lists and the error codes;
 * since 1.4 also the prompts and their arguments, the evidence resources' URI template and MIME
 * types, and which tools report progress.
 * Descriptions and titles are not part of it, and neither is spelling: a schema is compared by what
 * it accepts, so `anyOf: [{type: X}, {type: "null"}]` and `type: [X, "null"]` are the same shape
 * (in either order). Comparing a surface with a committed baseline
 * (contract/baseline/<version>.json) classifies every difference:
 *   breaking  — a tool removed, an argument removed or renamed, a required argument added, an
 *               argument's type changed, a success shape changed, a tool's class changed, an error
 *               code removed; a prompt or its argument removed, a required prompt argument added;
 *               the resource URI template changed, a resource file removed or its MIME type
 *               changed: needs a new major version;
 *   additive  — a tool, prompt, resource file or progress-reporting tool added, an optional
 *               (tool or prompt) argument added, an answer key added, a tool answering on
 *               an older resmon than before, a required answer key made optional only below the
 *               resmon line of the feature that carries it where the baseline refused the tool
 *               (its needs_resmon was that line or newer): needs a minor bump;
 *   narrowing — the server refuses what it accepted (a settings key leaving the writable list, an
 *               argument's accepted values changed, a tool needing a newer resmon), or a tool stops
 *               reporting progress: needs a minor bump.
 *
 * `tsx src/versioning.ts --write-baseline` writes contract/baseline/<CONTRACT_VERSION>.json;
 * `--write-baseline --from <contract.json>` writes the baseline of that contract document instead
 * (its own version: how 1.2's was rewritten, from `git show c665e97^:contract/contract.json`, to
 * carry the needs_resmon that 1.2's document had and its first baseline did not record).
 * `tsx src/versioning.ts` prints the differences from the newest baseline and the bump they need.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { compareVersions, contractDocument } from "@resmon/mcp-contract";
import { formatWithBiome } from "./biome-format.js";
import { REPO_ROOT } from "./pack-snippets.js";

export const BASELINE_DIR = join(REPO_ROOT, "contract", "baseline");

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export interface ArgSurface {
  required: boolean;
  /** The argument's JSON Schema without descriptions: its type, accepted values and limits. */
  schema: Json;
}

export interface ToolSurface {
  kind: string;
  requires_confirmation: boolean;
  args: Record<string, ArgSurface>;
  /** The success shape, flattened: JSON path -> {type, enum/const, required}. */
  output: Record<string, Json>;
  /** The oldest resmon line the tool answers on (contract 1.2+; see needsOf for older baselines). */
  needs_resmon?: string;
  /** Answer paths only a resmon of a newer line reports, by that line (the contract's feature_keys). */
  keys_since?: Record<string, string>;
}

/**
 * What a baseline that names no needs_resmon promised: contracts 1.0 and 1.1 were written against
 * resmon 2.3's surface alone (1.2 first named older resmons), so they promised answers on 2.3 only.
 */
const UNVERSIONED_NEEDS = "2.3";

function needsOf(tool: ToolSurface): string {
  return tool.needs_resmon ?? UNVERSIONED_NEEDS;
}

/** A prompt as a caller relies on it: its arguments and which are required (the words are not frozen). */
export interface PromptSurface {
  args: Record<string, { required: boolean }>;
}

/** The scan evidence resources (1.4): the URI template and each file's MIME type. */
export interface ResourceSurface {
  uri_template: string;
  files: Record<string, string>;
}

export interface Surface {
  contract_version: string;
  tools: Record<string, ToolSurface>;
  settings: { groups: string[]; writable: string[]; withheld: string[] };
  error_codes: string[];
  /** Contract 1.4+; a baseline without them had none. */
  prompts?: Record<string, PromptSurface>;
  resources?: ResourceSurface | null;
  progress_tools?: string[];
}

export type ChangeKind = "breaking" | "additive" | "narrowing";
export interface Change {
  kind: ChangeKind;
  what: string;
}

const NOT_STRUCTURAL = new Set(["description", "title", "default", "examples"]);

function isObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/**
 * A union of bare types, however it is written, as one sorted type list: `anyOf` branches that each
 * say only `type` (or a `type` list) mean exactly the list of those types. Anything richer is left
 * as it is.
 */
function unionOfBareTypes(schema: JsonObject): string[] | undefined {
  if (Array.isArray(schema.type)) return schema.type.map(String).sort();
  const branches = schema.anyOf;
  if (!Array.isArray(branches) || branches.length === 0) return undefined;
  const types: string[] = [];
  for (const b of branches) {
    if (!isObject(b) || Object.keys(b).some((k) => k !== "type" && !NOT_STRUCTURAL.has(k))) return undefined;
    if (typeof b.type === "string") types.push(b.type);
    else if (Array.isArray(b.type)) types.push(...b.type.map(String));
    else return undefined;
  }
  return [...new Set(types)].sort();
}

/** One spelling for one meaning: a union of bare types becomes a sorted `type` list (a single type, a string). */
function canonical(schema: JsonObject): JsonObject {
  const types = unionOfBareTypes(schema);
  if (types === undefined) return schema;
  const { anyOf: _anyOf, type: _type, ...rest } = schema;
  return { ...rest, type: types.length === 1 ? (types[0] ?? null) : types };
}

/** A schema without the words: only what decides which values pass. Keys sorted for stable JSON. */
function structural(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(structural);
  if (!isObject(schema)) return schema;
  const spelled = canonical(schema);
  const out: JsonObject = {};
  for (const key of Object.keys(spelled).sort()) {
    if (NOT_STRUCTURAL.has(key)) continue;
    out[key] = structural(spelled[key] ?? null);
  }
  return out;
}

/** Flatten an output schema to path -> what a reader relies on at that path. */
function flattenShape(raw: Json, path: string, required: boolean, out: Record<string, Json>): void {
  if (!isObject(raw)) return;
  const schema = canonical(raw);
  const here: JsonObject = { required };
  for (const key of ["type", "enum", "const"])
    if (schema[key] !== undefined) here[key] = structural(schema[key] ?? null);
  out[path || "$"] = here;
  const req = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  if (isObject(schema.properties)) {
    for (const [k, v] of Object.entries(schema.properties)) flattenShape(v, `${path}.${k}`, req.has(k), out);
  }
  if (schema.items !== undefined) flattenShape(schema.items, `${path}[]`, true, out);
  if (Array.isArray(schema.anyOf)) {
    for (const [i, s] of schema.anyOf.entries()) flattenShape(s, `${path}|${i}`, true, out);
  }
}

/** Per tool, each answer path a feature carries, by the feature's first line (`resmon.feature_keys`). */
function keysSinceOf(d: JsonObject): Record<string, Record<string, string>> {
  const resmon = isObject(d.resmon) ? d.resmon : {};
  const since = isObject(resmon.feature_since) ? resmon.feature_since : {};
  const out: Record<string, Record<string, string>> = {};
  for (const [feature, byTool] of Object.entries(isObject(resmon.feature_keys) ? resmon.feature_keys : {})) {
    const line = since[feature];
    if (typeof line !== "string" || !isObject(byTool)) continue;
    for (const [tool, paths] of Object.entries(byTool)) {
      const keys = out[tool] ?? {};
      for (const path of Array.isArray(paths) ? paths : []) keys[String(path)] = line;
      out[tool] = keys;
    }
  }
  return out;
}

/** The surface of a contract document (contractDocument() or contract/contract.json). */
export function surfaceOf(doc: unknown): Surface {
  const d = doc as JsonObject;
  const keysSince = keysSinceOf(d);
  const tools: Record<string, ToolSurface> = {};
  for (const t of (d.tools ?? []) as JsonObject[]) {
    const input = (t.input_schema ?? {}) as JsonObject;
    const required = new Set(Array.isArray(input.required) ? input.required.map(String) : []);
    const args: Record<string, ArgSurface> = {};
    for (const [name, schema] of Object.entries((input.properties ?? {}) as JsonObject)) {
      args[name] = { required: required.has(name), schema: structural(schema) };
    }
    const output: Record<string, Json> = {};
    flattenShape(t.output_schema ?? null, "", true, output);
    const surface: ToolSurface = {
      kind: String(t.kind),
      requires_confirmation: t.requires_confirmation === true,
      args,
      output,
    };
    if (typeof t.needs_resmon === "string") surface.needs_resmon = t.needs_resmon;
    const since = keysSince[String(t.name)];
    if (since) surface.keys_since = since;
    tools[String(t.name)] = surface;
  }
  const s = (d.settings ?? {}) as JsonObject;
  const keys = (v: Json | undefined) =>
    (Array.isArray(v) ? v.map(String) : isObject(v) ? Object.keys(v) : []).sort();
  const prompts: Record<string, PromptSurface> = {};
  for (const p of Array.isArray(d.prompts) ? d.prompts : []) {
    if (!isObject(p)) continue;
    const args: PromptSurface["args"] = {};
    for (const a of Array.isArray(p.arguments) ? p.arguments : [])
      if (isObject(a)) args[String(a.name)] = { required: a.required === true };
    prompts[String(p.name)] = { args };
  }
  const r = isObject(d.resources) ? d.resources : undefined;
  const resources: ResourceSurface | null = r
    ? {
        uri_template: String(r.uri_template),
        files: Object.fromEntries(
          (Array.isArray(r.files) ? r.files : [])
            .filter(isObject)
            .map((f) => [String(f.file), String(f.mime_type)]),
        ),
      }
    : null;
  const progress =
    isObject(d.progress) && isObject(d.progress.tools) ? Object.keys(d.progress.tools).sort() : [];
  return {
    contract_version: String(d.contract_version),
    tools,
    settings: { groups: keys(s.groups), writable: keys(s.writable), withheld: keys(s.withheld) },
    error_codes: keys(d.error_codes),
    prompts,
    resources,
    progress_tools: progress,
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(respelled(a)) === JSON.stringify(respelled(b));

/** A surface written before spelling was canonical (a baseline): its type lists, sorted. */
function respelled(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(respelled);
  if (!isObject(v)) return v;
  const out: JsonObject = {};
  for (const [k, x] of Object.entries(v))
    out[k] = (k === "type" && Array.isArray(x) ? [...x].map(String).sort() : respelled(x)) as Json;
  return out;
}

function diffArgs(tool: string, before: ToolSurface, after: ToolSurface, out: Change[]): void {
  for (const [name, arg] of Object.entries(before.args)) {
    const now = after.args[name];
    if (!now) out.push({ kind: "breaking", what: `${tool}: argument ${name} removed or renamed` });
    else if (!arg.required && now.required)
      out.push({ kind: "breaking", what: `${tool}: argument ${name} became required` });
    else if (arg.required && !now.required)
      out.push({ kind: "additive", what: `${tool}: argument ${name} became optional` });
    if (!now || same(arg.schema, now.schema)) continue;
    const typeOf = (s: Json) => (isObject(s) ? (s.type ?? null) : null);
    if (!same(typeOf(arg.schema), typeOf(now.schema)))
      out.push({ kind: "breaking", what: `${tool}: argument ${name} changed type` });
    else out.push({ kind: "narrowing", what: `${tool}: argument ${name} accepts different values` });
  }
  for (const [name, arg] of Object.entries(after.args)) {
    if (before.args[name]) continue;
    out.push(
      arg.required
        ? { kind: "breaking", what: `${tool}: required argument ${name} added` }
        : { kind: "additive", what: `${tool}: optional argument ${name} added` },
    );
  }
}

/**
 * The resmon line below which a required answer key may now be absent without breaking a reader:
 * the contract names the feature that carries it (keys_since), and the baseline refused the whole
 * tool below that line (its needs_resmon was that line or newer). On every resmon where the baseline
 * answered, the key is still always there; where it may be absent, the baseline answered nothing.
 */
function optionalOnlyWhereRefused(before: ToolSurface, after: ToolSurface, path: string): string | undefined {
  const line = after.keys_since?.[path];
  return line !== undefined && compareVersions(needsOf(before), line) >= 0 ? line : undefined;
}

/**
 * The values an answer's enum gained, when that is all that changed (every old value still there):
 * a new next_action, say, which the contract's instructions teach in the same version.
 */
function gainsValues(was: JsonObject, now: JsonObject): string | undefined {
  const { enum: wasEnum, ...wasRest } = was;
  const { enum: nowEnum, ...nowRest } = now;
  if (!Array.isArray(wasEnum) || !Array.isArray(nowEnum) || !same(wasRest, nowRest)) return undefined;
  const added = nowEnum.filter((v) => !wasEnum.some((w) => same(v, w)));
  if (added.length === 0 || wasEnum.some((w) => !nowEnum.some((v) => same(v, w)))) return undefined;
  return added.map((v) => JSON.stringify(v)).join(", ");
}

function diffOutput(
  tool: string,
  baseVersion: string,
  before: ToolSurface,
  after: ToolSurface,
  out: Change[],
): void {
  for (const [path, was] of Object.entries(before.output)) {
    const now = after.output[path];
    if (now === undefined) {
      out.push({ kind: "breaking", what: `${tool}: answer key ${path} removed` });
      continue;
    }
    if (same(was, now)) continue;
    const { required: wasRequired, ...wasRest } = was as JsonObject;
    const { required: nowRequired, ...nowRest } = now as JsonObject;
    // A key that is now always there, and otherwise the same, breaks no reader.
    const below =
      wasRequired === true && nowRequired === false && optionalOnlyWhereRefused(before, after, path);
    if (same(wasRest, nowRest) && wasRequired === false && nowRequired === true)
      out.push({ kind: "additive", what: `${tool}: answer key ${path} now always present` });
    else if (same(wasRest, nowRest) && below)
      out.push({
        kind: "additive",
        what: `${tool}: answer key ${path} optional below resmon ${below}: answers where ${baseVersion} refused`,
      });
    else if (wasRequired === nowRequired && gainsValues(wasRest, nowRest))
      out.push({
        kind: "additive",
        what: `${tool}: answer key ${path} gains values ${gainsValues(wasRest, nowRest)}`,
      });
    else out.push({ kind: "breaking", what: `${tool}: answer key ${path} changed shape` });
  }
  for (const path of Object.keys(after.output)) {
    if (before.output[path] === undefined)
      out.push({ kind: "additive", what: `${tool}: answer key ${path} added` });
  }
}

/** A tool answering on an older resmon than before is additive; one needing a newer resmon, a narrowing. */
function diffNeeds(tool: string, before: ToolSurface, after: ToolSurface, out: Change[]): void {
  const was = needsOf(before);
  const now = needsOf(after);
  const order = compareVersions(now, was);
  if (order < 0) out.push({ kind: "additive", what: `${tool}: answers on resmon ${now} (needed ${was})` });
  if (order > 0) out.push({ kind: "narrowing", what: `${tool}: needs resmon ${now} (answered on ${was})` });
}

function diffList(
  what: string,
  before: string[],
  after: string[],
  removed: ChangeKind,
  added: ChangeKind,
  out: Change[],
) {
  for (const x of before) if (!after.includes(x)) out.push({ kind: removed, what: `${what}: ${x} removed` });
  for (const x of after) if (!before.includes(x)) out.push({ kind: added, what: `${what}: ${x} added` });
}

/** Every difference from `before` to `after`, classified. */
export function diffSurfaces(before: Surface, after: Surface): Change[] {
  const out: Change[] = [];
  for (const [name, tool] of Object.entries(before.tools)) {
    const now = after.tools[name];
    if (!now) {
      out.push({ kind: "breaking", what: `tool ${name} removed or renamed` });
      continue;
    }
    if (tool.kind !== now.kind || tool.requires_confirmation !== now.requires_confirmation)
      out.push({ kind: "breaking", what: `tool ${name} changed class (${tool.kind} -> ${now.kind})` });
    diffArgs(name, tool, now, out);
    diffOutput(name, before.contract_version, tool, now, out);
    diffNeeds(name, tool, now, out);
  }
  for (const name of Object.keys(after.tools)) {
    if (!before.tools[name]) out.push({ kind: "additive", what: `tool ${name} added` });
  }
  diffList("settings group", before.settings.groups, after.settings.groups, "narrowing", "additive", out);
  diffList(
    "writable settings key",
    before.settings.writable,
    after.settings.writable,
    "narrowing",
    "additive",
    out,
  );
  diffList(
    "withheld settings key",
    before.settings.withheld,
    after.settings.withheld,
    "additive",
    "narrowing",
    out,
  );
  diffList("error code", before.error_codes, after.error_codes, "breaking", "additive", out);
  diffPrompts(before.prompts ?? {}, after.prompts ?? {}, out);
  diffResources(before.resources ?? null, after.resources ?? null, out);
  // Progress is best effort by the protocol (a server MAY send none), so a tool that stops reporting
  // breaks no reader; but two servers that behave differently must not share a version.
  diffList(
    "progress tool",
    before.progress_tools ?? [],
    after.progress_tools ?? [],
    "narrowing",
    "additive",
    out,
  );
  return out;
}

/** Prompts as the tool table: one removed or an argument removed or newly required breaks a caller. */
function diffPrompts(
  before: Record<string, PromptSurface>,
  after: Record<string, PromptSurface>,
  out: Change[],
) {
  for (const [name, prompt] of Object.entries(before)) {
    const now = after[name];
    if (!now) {
      out.push({ kind: "breaking", what: `prompt ${name} removed or renamed` });
      continue;
    }
    for (const [arg, was] of Object.entries(prompt.args)) {
      const is = now.args[arg];
      if (!is) out.push({ kind: "breaking", what: `prompt ${name}: argument ${arg} removed or renamed` });
      else if (!was.required && is.required)
        out.push({ kind: "breaking", what: `prompt ${name}: argument ${arg} became required` });
      else if (was.required && !is.required)
        out.push({ kind: "additive", what: `prompt ${name}: argument ${arg} became optional` });
    }
    for (const [arg, is] of Object.entries(now.args)) {
      if (prompt.args[arg]) continue;
      out.push(
        is.required
          ? { kind: "breaking", what: `prompt ${name}: required argument ${arg} added` }
          : { kind: "additive", what: `prompt ${name}: optional argument ${arg} added` },
      );
    }
  }
  for (const name of Object.keys(after))
    if (!before[name]) out.push({ kind: "additive", what: `prompt ${name} added` });
}

/** A resource URI or MIME type a caller stored or dispatches on must not move; a new file is additive. */
function diffResources(before: ResourceSurface | null, after: ResourceSurface | null, out: Change[]) {
  if (before === null) {
    if (after !== null) out.push({ kind: "additive", what: `resources ${after.uri_template} added` });
    return;
  }
  if (after === null) {
    out.push({ kind: "breaking", what: `resources ${before.uri_template} removed` });
    return;
  }
  if (before.uri_template !== after.uri_template)
    out.push({
      kind: "breaking",
      what: `resource URI template changed (${before.uri_template} -> ${after.uri_template})`,
    });
  for (const [file, mime] of Object.entries(before.files)) {
    const now = after.files[file];
    if (now === undefined) out.push({ kind: "breaking", what: `resource file ${file} removed` });
    else if (now !== mime)
      out.push({ kind: "breaking", what: `resource file ${file} changed MIME type (${mime} -> ${now})` });
  }
  for (const file of Object.keys(after.files))
    if (before.files[file] === undefined) out.push({ kind: "additive", what: `resource file ${file} added` });
}

export type Bump = "none" | "minor" | "major";

export function requiredBump(changes: Change[]): Bump {
  if (changes.some((c) => c.kind === "breaking")) return "major";
  return changes.length > 0 ? "minor" : "none";
}

function parseVersion(v: string): [number, number] {
  const m = /^(\d+)\.(\d+)$/.exec(v);
  if (!m) throw new Error(`not a contract version: ${v}`);
  return [Number(m[1]), Number(m[2])];
}

/** Whether moving from `base` to `current` is the bump these changes need. */
export function checkVersion(
  base: string,
  current: string,
  changes: Change[],
): { ok: boolean; message: string } {
  const [bM, bm] = parseVersion(base);
  const [cM, cm] = parseVersion(current);
  const bump = requiredBump(changes);
  const ok =
    bump === "major"
      ? cM > bM
      : bump === "minor"
        ? cM > bM || (cM === bM && cm > bm)
        : cM > bM || (cM === bM && cm >= bm);
  const list = changes.map((c) => `  ${c.kind}: ${c.what}`).join("\n");
  const need =
    bump === "major"
      ? `a major bump (to ${bM + 1}.0)`
      : bump === "minor"
        ? `a minor bump (to ${bM}.${bm + 1})`
        : "no bump";
  return {
    ok,
    message: ok
      ? `contract ${current} against baseline ${base}: ${changes.length} change(s), ${need} needed: fine`
      : `contract ${current} against baseline ${base} needs ${need}:\n${list}`,
  };
}

/** The committed baselines, newest version first. */
export async function baselines(): Promise<Surface[]> {
  const files = (await readdir(BASELINE_DIR)).filter((f) => /^\d+\.\d+\.json$/.test(f));
  const all = await Promise.all(
    files.map(async (f) => JSON.parse(await readFile(join(BASELINE_DIR, f), "utf8")) as Surface),
  );
  return all.sort((a, b) => {
    const [aM, am] = parseVersion(a.contract_version);
    const [bM, bm] = parseVersion(b.contract_version);
    return bM - aM || bm - am;
  });
}

export function currentSurface(): Surface {
  return surfaceOf(JSON.parse(JSON.stringify(contractDocument())));
}

async function main(argv: string[]): Promise<number> {
  const current = currentSurface();
  if (argv.includes("--write-baseline")) {
    const from = argv.includes("--from") ? argv[argv.indexOf("--from") + 1] : undefined;
    if (argv.includes("--from") && !from) {
      process.stderr.write("--from needs the path of a contract document (contract.json)\n");
      return 2;
    }
    const written = from ? surfaceOf(JSON.parse(await readFile(resolve(from), "utf8"))) : current;
    const file = join(BASELINE_DIR, `${written.contract_version}.json`);
    await writeFile(file, `${JSON.stringify(written, null, 2)}\n`);
    await formatWithBiome([file]);
    process.stdout.write(`wrote ${file}\n`);
    return 0;
  }
  const [newest] = await baselines();
  if (!newest) {
    process.stdout.write("no baseline in contract/baseline\n");
    return 1;
  }
  const result = checkVersion(
    newest.contract_version,
    current.contract_version,
    diffSurfaces(newest, current),
  );
  process.stdout.write(`${result.message}\n`);
  return result.ok ? 0 : 1;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename ?? "")) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
