/**
 * `pnpm --filter @resmon/api-client api:update --from <openapi.json file | http://127.0.0.1:PORT/openapi.json>`
 *
 * Writes contract/resmon-api.openapi.json: resmon's own interface as it serves it (paths, methods,
 * parameters, request bodies and their schemas; its prose dropped) merged with our answers
 * (contract/resmon-api.responses.json, kept by hand: resmon declares no response schemas). A URL is
 * read with the token found by the client's own discovery (RESMON_STATE_DIR, as for the server).
 *
 *   --check       write nothing; exit 1 when the committed description is not this output
 *   --if-present  with --check: exit 0 with a note when the --from file is absent
 *
 * Every operation resmon serves gets an answer: the one our responses file decides, or, for an
 * operation the file does not name yet (a newer resmon), `unknown`, named on stderr so it gets a
 * decision. An entry in our file that resmon does not serve is an error.
 */
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { relative, resolve } from "node:path";
import { discover } from "@resmon/api-client";
import { API_DESCRIPTION } from "./api-description-path.js";
import { runIfMain } from "./run-main.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export const RESPONSES_FILE = resolve(API_DESCRIPTION, "../resmon-api.responses.json");
export const METHODS = ["get", "put", "post", "delete", "patch"] as const;
/** Schema keywords that carry prose, dropped from resmon's document. */
const PROSE = new Set(["description", "summary", "title", "examples", "example", "externalDocs", "tags"]);
/** Keys whose value maps names (field names, status codes, media types) to schemas: never dropped. */
const NAME_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "schemas", "content"]);
const SUCCESS = /^2\d\d$/;

export interface OperationAnswer {
  /** Where the shape comes from (a sample file, a module of resmon's code). */
  basis?: string;
  /** Set when the answer's shape is not known: why. The success body is then typed `unknown`. */
  unknown?: string;
  /** Our responses by status (the guard's 401/403, 422 and the default error are added to every one). */
  responses?: JsonObject;
}

export interface ResponsesFile {
  info: JsonObject;
  servers: Json[];
  security: Json[];
  /** Error responses every operation answers with, by status. */
  every: JsonObject;
  components: { securitySchemes: JsonObject; schemas: JsonObject; responses: JsonObject };
  operations: Record<string, OperationAnswer>;
}

function isObject(value: Json | undefined): value is JsonObject {
  return value !== null && value !== undefined && typeof value === "object" && !Array.isArray(value);
}

/** resmon's document with its prose removed; names inside NAME_MAPS are kept whatever they are. */
export function structureOnly(value: Json, keepKeys = false): Json {
  if (Array.isArray(value)) return value.map((v) => structureOnly(v));
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const [key, inner] of Object.entries(value)) {
    if (!keepKeys && PROSE.has(key)) continue;
    out[key] = structureOnly(inner, !keepKeys && NAME_MAPS.has(key));
  }
  return out;
}

export function operationKeys(doc: JsonObject): string[] {
  const keys: string[] = [];
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const method of METHODS) if (isObject(item[method])) keys.push(`${method.toUpperCase()} ${path}`);
  }
  return keys;
}

export interface Built {
  doc: JsonObject;
  /** Operations resmon serves that our file does not decide yet (typed unknown meanwhile). */
  undecided: string[];
}

/** Our success responses for one operation, or the `unknown` body at resmon's own success status. */
function answersFor(theirsOp: JsonObject, answer: OperationAnswer | undefined, key: string): JsonObject {
  if (answer?.responses && !answer.unknown) return { ...answer.responses };
  const declared = Object.keys(isObject(theirsOp.responses) ? theirsOp.responses : {}).filter((s) =>
    SUCCESS.test(s),
  );
  const out: JsonObject = {};
  for (const status of declared.length > 0 ? declared : ["200"]) {
    out[status] = {
      description: answer?.unknown ? `Not known: ${answer.unknown}` : `Not decided yet (${key}).`,
      content: { "application/json": { schema: {} } },
    };
  }
  return { ...out, ...(answer?.responses ?? {}) };
}

export function buildDescription(theirsIn: JsonObject, ours: ResponsesFile): Built {
  const theirs = structureOnly(theirsIn) as JsonObject;
  const theirKeys = new Set(operationKeys(theirs));
  const stray = Object.keys(ours.operations).filter((k) => !theirKeys.has(k));
  if (stray.length > 0) {
    throw new Error(
      `resmon does not serve these operations named in our responses file: ${stray.join(", ")}`,
    );
  }
  const undecided: string[] = [];
  const paths: JsonObject = {};
  for (const [path, item] of Object.entries(isObject(theirs.paths) ? theirs.paths : {})) {
    if (!isObject(item)) continue;
    const outItem: JsonObject = {};
    for (const [method, op] of Object.entries(item)) {
      if (!isObject(op) || !(METHODS as readonly string[]).includes(method)) {
        outItem[method] = op;
        continue;
      }
      const key = `${method.toUpperCase()} ${path}`;
      const answer = ours.operations[key];
      if (answer === undefined) undecided.push(key);
      const responses = answersFor(op, answer, key);
      for (const [status, response] of Object.entries(ours.every)) {
        if (!(status in responses)) responses[status] = response;
      }
      outItem[method] = { ...op, responses };
    }
    paths[path] = outItem;
  }
  const theirSchemas =
    isObject(theirs.components) && isObject(theirs.components.schemas) ? theirs.components.schemas : {};
  const clash = Object.keys(ours.components.schemas).filter((name) => name in theirSchemas);
  if (clash.length > 0) throw new Error(`schema names used by resmon and by us: ${clash.join(", ")}`);
  const doc: JsonObject = {
    openapi: theirs.openapi ?? "3.1.0",
    info: ours.info,
    servers: ours.servers,
    security: ours.security,
    paths,
    components: {
      securitySchemes: ours.components.securitySchemes,
      schemas: { ...theirSchemas, ...ours.components.schemas },
      responses: ours.components.responses,
    },
  };
  return { doc, undecided };
}

export function renderDescription(built: Built): string {
  return `${JSON.stringify(built.doc, null, 2)}\n`;
}

export async function readResponsesFile(path = RESPONSES_FILE): Promise<ResponsesFile> {
  return JSON.parse(await readFile(path, "utf8")) as ResponsesFile;
}

type Loaded = { ok: true; doc: JsonObject } | { ok: false; absent: boolean; message: string };

/** The port of a loopback URL, or undefined: api:update reads only a local resmon. */
function loopbackPort(url: URL): number | undefined {
  if (url.protocol !== "http:" || (url.hostname !== "127.0.0.1" && url.hostname !== "localhost"))
    return undefined;
  const port = Number(url.port);
  return Number.isInteger(port) && port > 0 ? port : undefined;
}

async function loadFromUrl(source: string): Promise<Loaded> {
  const port = loopbackPort(new URL(source));
  if (port === undefined) {
    return { ok: false, absent: false, message: `${source} is not http://127.0.0.1:<port>/openapi.json` };
  }
  const found = await discover({ env: { ...process.env, RESMON_PORT: String(port) } });
  if (!found.ok)
    return { ok: false, absent: true, message: `${found.refusal.kind}: ${found.refusal.message}` };
  try {
    const answer = await found.client.openApiDocument();
    if (!answer.ok) return { ok: false, absent: false, message: `${source}: ${answer.error.message}` };
    return isObject(answer.data as Json)
      ? { ok: true, doc: answer.data as JsonObject }
      : { ok: false, absent: false, message: `${source} is not an OpenAPI document` };
  } finally {
    await found.client.close();
  }
}

export async function loadOpenApi(source: string): Promise<Loaded> {
  if (/^https?:\/\//i.test(source)) return loadFromUrl(source);
  let text: string;
  try {
    text = await readFile(source, "utf8");
  } catch {
    return { ok: false, absent: true, message: `${source} does not exist` };
  }
  try {
    const doc = JSON.parse(text) as Json;
    if (isObject(doc)) return { ok: true, doc };
  } catch {
    /* reported below */
  }
  return { ok: false, absent: false, message: `${source} is not a JSON OpenAPI document` };
}

/**
 * pnpm runs a package script in the package's folder: a relative --from means where it was typed
 * (INIT_CWD), else the folder the script runs in.
 */
function localPath(from: string): string {
  const bases = [process.env.INIT_CWD, process.cwd()].filter((b): b is string => typeof b === "string");
  const found = bases.map((b) => resolve(b, from)).find((p) => existsSync(p));
  return found ?? resolve(bases[0] ?? ".", from);
}

async function readOrEmpty(path: string): Promise<string> {
  return readFile(path, "utf8").catch(() => "");
}

export async function main(argv: readonly string[]): Promise<number> {
  const check = argv.includes("--check");
  const ifPresent = argv.includes("--if-present");
  const fromAt = argv.indexOf("--from");
  const from = fromAt >= 0 ? argv[fromAt + 1] : undefined;
  if (!from) {
    console.error(
      "usage: api:update --from <openapi.json file | http://127.0.0.1:PORT/openapi.json> [--check]",
    );
    return 2;
  }
  const source = /^https?:\/\//i.test(from) ? from : localPath(from);
  const loaded = await loadOpenApi(source);
  if (!loaded.ok) {
    if (loaded.absent && ifPresent) {
      console.log(`note: ${loaded.message}; the API description was not checked against it.`);
      return 0;
    }
    console.error(`api:update: ${loaded.message}`);
    return 1;
  }
  const built = buildDescription(loaded.doc, await readResponsesFile());
  for (const key of built.undecided) {
    console.error(
      `new operation ${key}: no answer decided in contract/resmon-api.responses.json (typed unknown)`,
    );
  }
  const text = renderDescription(built);
  const target = relative(resolve(API_DESCRIPTION, "../.."), API_DESCRIPTION);
  const current = await readOrEmpty(API_DESCRIPTION);
  if (check) {
    if (current === text) {
      console.log(`${target} is api:update's output for ${source}.`);
      return 0;
    }
    console.error(
      `${target} is stale: run \`pnpm --filter @resmon/api-client api:update --from ${from}\`, then \`pnpm generate\`.`,
    );
    return 1;
  }
  if (current !== text) await writeFile(API_DESCRIPTION, text);
  const count = operationKeys(built.doc).length;
  console.log(`${current === text ? "unchanged" : "wrote"} ${target}: ${count} operations.`);
  return 0;
}

runIfMain(import.meta.url, "api:update", main);
