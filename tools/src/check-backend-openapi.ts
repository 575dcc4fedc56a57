/**
 * Drift check: does a resmon backend still accept every request our API description sends?
 *
 *   tsx src/check-backend-openapi.ts [--if-present] [--token-file <path>] <openapi.json file | URL>
 *
 * Fails (exit 1) on any path, method, parameter or request-body field of ours that the backend does
 * not declare, any required parameter or body field of theirs that we do not declare, a parameter
 * required on one side only, a different request media type, any type mismatch, and any operation
 * the backend serves that we do not describe (named, so it gets a decision); it prints every
 * difference. A URL is fetched with the bearer token from --token-file or
 * RESMON_API_TOKEN (never printed). --if-present exits 0 with a note when the file is absent.
 */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { API_DESCRIPTION } from "./api-description-path.js";
import { loadOpenApi } from "./api-update.js";
import { runIfMain } from "./run-main.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export const OUR_DESCRIPTION = API_DESCRIPTION;
const METHODS = ["get", "put", "post", "delete", "patch", "options", "head", "trace"] as const;

export interface DriftReport {
  differences: string[];
  checked: { operations: number; parameters: number; bodyFields: number };
}

function isObject(value: Json | undefined): value is JsonObject {
  return value !== null && value !== undefined && typeof value === "object" && !Array.isArray(value);
}

/** Follows local "#/..." references inside one document. */
function deref(doc: JsonObject, value: Json | undefined, seen = 0): Json | undefined {
  if (!isObject(value) || typeof value.$ref !== "string" || seen > 20) return value;
  const ref = value.$ref;
  if (!ref.startsWith("#/")) return value;
  let target: Json | undefined = doc;
  for (const part of ref.slice(2).split("/")) {
    target = isObject(target) ? target[part.replaceAll("~1", "/").replaceAll("~0", "~")] : undefined;
  }
  return deref(doc, target, seen + 1);
}

/** The JSON types a schema admits, "null" excluded; undefined when it admits anything. */
function typesOf(doc: JsonObject, schema: Json | undefined): Set<string> | undefined {
  const s = deref(doc, schema);
  if (!isObject(s)) return undefined;
  const out = new Set<string>();
  const add = (t: Json | undefined) => {
    if (typeof t === "string" && t !== "null") out.add(t);
  };
  if (typeof s.type === "string") add(s.type);
  else if (Array.isArray(s.type)) s.type.forEach(add);
  let open = out.size === 0 && s.const === undefined && s.enum === undefined;
  for (const key of ["anyOf", "oneOf", "allOf"] as const) {
    const branches = s[key];
    if (!Array.isArray(branches)) continue;
    for (const branch of branches) {
      const inner = typesOf(doc, branch);
      if (inner === undefined) {
        if (key !== "allOf") return undefined;
      } else {
        for (const t of inner) out.add(t);
        open = false;
      }
    }
  }
  if (s.const !== undefined && s.const !== null) out.add(jsonType(s.const));
  return open && out.size === 0 ? undefined : out;
}

function jsonType(value: Json): string {
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return value === null ? "null" : typeof value;
}

/** Ours must be a subset of theirs (an integer is a number). */
function typeMismatch(ours: Set<string> | undefined, theirs: Set<string> | undefined): string | undefined {
  if (ours === undefined || theirs === undefined) return undefined;
  const missing = [...ours].filter((t) => !theirs.has(t) && !(t === "integer" && theirs.has("number")));
  if (missing.length === 0) return undefined;
  return `we send ${[...ours].sort().join("|")}, the backend declares ${[...theirs].sort().join("|") || "null"}`;
}

function objectProps(
  doc: JsonObject,
  schema: Json | undefined,
): { props: JsonObject; required: string[] } | undefined {
  const s = deref(doc, schema);
  if (!isObject(s)) return undefined;
  const props: JsonObject = {};
  const required: string[] = [];
  const absorb = (part: Json | undefined) => {
    const p = deref(doc, part);
    if (!isObject(p)) return;
    if (isObject(p.properties)) Object.assign(props, p.properties);
    if (Array.isArray(p.required)) for (const r of p.required) if (typeof r === "string") required.push(r);
    if (Array.isArray(p.allOf)) p.allOf.forEach(absorb);
  };
  absorb(s);
  return Object.keys(props).length > 0 || required.length > 0 ? { props, required } : undefined;
}

function compareSchemas(
  ours: JsonObject,
  theirs: JsonObject,
  oursSchema: Json | undefined,
  theirsSchema: Json | undefined,
  where: string,
  out: string[],
  counter: { fields: number },
  depth = 0,
): void {
  const mismatch = typeMismatch(typesOf(ours, oursSchema), typesOf(theirs, theirsSchema));
  if (mismatch) {
    out.push(`${where}: type mismatch (${mismatch})`);
    return;
  }
  if (depth > 6) return;
  const theirObject = objectProps(theirs, theirsSchema);
  const ourObject = objectProps(ours, oursSchema);
  if (theirObject && ourObject) {
    for (const [name, schema] of Object.entries(ourObject.props)) {
      counter.fields += 1;
      const theirField = theirObject.props[name];
      if (theirField === undefined) {
        out.push(`${where}.${name}: we send it, the backend does not declare it`);
        continue;
      }
      compareSchemas(ours, theirs, schema, theirField, `${where}.${name}`, out, counter, depth + 1);
    }
    for (const name of theirObject.required) {
      if (!(name in ourObject.props))
        out.push(`${where}.${name}: the backend requires it, we do not send it`);
    }
  }
  const ourItems = deref(ours, oursSchema);
  const theirItems = deref(theirs, theirsSchema);
  if (
    isObject(ourItems) &&
    isObject(theirItems) &&
    ourItems.items !== undefined &&
    theirItems.items !== undefined
  ) {
    compareSchemas(ours, theirs, ourItems.items, theirItems.items, `${where}[]`, out, counter, depth + 1);
  }
}

interface Param {
  name: string;
  in: string;
  required: boolean;
  schema: Json | undefined;
}

function paramsOf(doc: JsonObject, pathItem: JsonObject, operation: JsonObject): Param[] {
  const byKey = new Map<string, Param>();
  for (const list of [pathItem.parameters, operation.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      const p = deref(doc, raw);
      if (!isObject(p) || typeof p.name !== "string" || typeof p.in !== "string") continue;
      byKey.set(`${p.in}:${p.name}`, {
        name: p.name,
        in: p.in,
        required: p.required === true,
        schema: p.schema,
      });
    }
  }
  return [...byKey.values()];
}

function jsonBodySchema(
  doc: JsonObject,
  operation: JsonObject,
): { schema: Json | undefined; required: boolean } | undefined {
  const body = deref(doc, operation.requestBody);
  if (!isObject(body) || !isObject(body.content)) return undefined;
  const media = body.content["application/json"];
  return { schema: isObject(media) ? media.schema : undefined, required: body.required === true };
}

/** Every difference between the requests we describe and what the backend declares. */
export function compareDescriptions(oursDoc: object, theirsDoc: object): DriftReport {
  const ours = oursDoc as JsonObject;
  const theirs = theirsDoc as JsonObject;
  const differences: string[] = [];
  const checked = { operations: 0, parameters: 0, bodyFields: 0 };
  const ourPaths = isObject(ours.paths) ? ours.paths : {};
  const theirPaths = isObject(theirs.paths) ? theirs.paths : {};
  for (const [path, rawItem] of Object.entries(ourPaths)) {
    const ourItem = deref(ours, rawItem);
    if (!isObject(ourItem)) continue;
    const theirItem = deref(theirs, theirPaths[path]);
    for (const method of METHODS) {
      const ourOp = ourItem[method];
      if (!isObject(ourOp)) continue;
      checked.operations += 1;
      const label = `${method.toUpperCase()} ${path}`;
      if (!isObject(theirItem)) {
        differences.push(`${label}: the backend does not declare this path`);
        continue;
      }
      const theirOp = theirItem[method];
      if (!isObject(theirOp)) {
        differences.push(`${label}: the backend does not declare this method on the path`);
        continue;
      }
      const theirParams = paramsOf(theirs, theirItem, theirOp);
      const ourParams = paramsOf(ours, ourItem, ourOp);
      for (const p of ourParams) {
        checked.parameters += 1;
        const match = theirParams.find((t) => t.name === p.name && t.in === p.in);
        if (!match) {
          differences.push(`${label}: ${p.in} parameter "${p.name}" is not declared by the backend`);
          continue;
        }
        const mismatch = typeMismatch(typesOf(ours, p.schema), typesOf(theirs, match.schema));
        if (mismatch) differences.push(`${label}: ${p.in} parameter "${p.name}" type mismatch (${mismatch})`);
        if (match.required !== p.required) {
          differences.push(
            `${label}: ${p.in} parameter "${p.name}" is ${p.required ? "required" : "optional"} here, ${match.required ? "required" : "optional"} in the backend`,
          );
        }
      }
      for (const t of theirParams) {
        if (t.required && !ourParams.some((p) => p.name === t.name && p.in === t.in)) {
          differences.push(
            `${label}: the backend requires ${t.in} parameter "${t.name}", we do not declare it`,
          );
        }
      }
      const ourTypes = bodyMediaTypes(ours, ourOp);
      const theirTypes = bodyMediaTypes(theirs, theirOp);
      if (ourTypes.join() !== theirTypes.join()) {
        differences.push(
          `${label}: the request body is ${ourTypes.join("|") || "none"} here, ${theirTypes.join("|") || "none"} in the backend`,
        );
      }
      const ourBody = jsonBodySchema(ours, ourOp);
      const theirBody = jsonBodySchema(theirs, theirOp);
      if (ourBody && !theirBody) differences.push(`${label}: we send a JSON body, the backend declares none`);
      if (!ourBody && theirBody?.required)
        differences.push(`${label}: the backend requires a JSON body, we send none`);
      if (ourBody && theirBody) {
        const counter = { fields: 0 };
        compareSchemas(ours, theirs, ourBody.schema, theirBody.schema, `${label} body`, differences, counter);
        checked.bodyFields += counter.fields;
      }
    }
  }
  for (const key of servedOnlyThere(ours, theirs)) {
    differences.push(
      `${key}: new in the backend; decide its answer in contract/resmon-api.responses.json and run api:update`,
    );
  }
  return { differences, checked };
}

/** "METHOD path" of each operation the backend serves that our description does not. */
export function servedOnlyThere(oursDoc: object, theirsDoc: object): string[] {
  const ours = oursDoc as JsonObject;
  const theirs = theirsDoc as JsonObject;
  const ourPaths = isObject(ours.paths) ? ours.paths : {};
  const out: string[] = [];
  for (const [path, rawItem] of Object.entries(isObject(theirs.paths) ? theirs.paths : {})) {
    const item = deref(theirs, rawItem);
    if (!isObject(item)) continue;
    const ourItem = deref(ours, ourPaths[path]);
    for (const method of METHODS) {
      if (isObject(item[method]) && !(isObject(ourItem) && isObject(ourItem[method]))) {
        out.push(`${method.toUpperCase()} ${path}`);
      }
    }
  }
  return out;
}

/** The media types a request body may take, sorted; with "(required)" when the body is required. */
function bodyMediaTypes(doc: JsonObject, operation: JsonObject): string[] {
  const body = deref(doc, operation.requestBody);
  if (!isObject(body) || !isObject(body.content)) return [];
  const suffix = body.required === true ? " (required)" : "";
  return Object.keys(body.content)
    .sort()
    .map((t) => `${t}${suffix}`);
}

async function readToken(tokenFile: string | undefined): Promise<string | undefined> {
  if (tokenFile) return (await readFile(tokenFile, "utf8")).trim();
  const fromEnv = process.env.RESMON_API_TOKEN?.trim();
  return fromEnv ? fromEnv : undefined;
}

type Loaded = { ok: true; doc: JsonObject } | { ok: false; absent: boolean; message: string };

async function loadTheirs(source: string, tokenFile: string | undefined): Promise<Loaded> {
  if (/^https?:\/\//i.test(source)) {
    const token = await readToken(tokenFile);
    let response: Response;
    try {
      response = await fetch(source, {
        headers: token
          ? { Authorization: `Bearer ${token}`, Accept: "application/json" }
          : { Accept: "application/json" },
        signal: AbortSignal.timeout(10_000),
      });
    } catch {
      return { ok: false, absent: true, message: `could not fetch ${source}` };
    }
    if (!response.ok)
      return { ok: false, absent: false, message: `${source} answered HTTP ${response.status}` };
    const doc = (await response.json().catch(() => undefined)) as Json | undefined;
    return isObject(doc)
      ? { ok: true, doc }
      : { ok: false, absent: false, message: `${source} is not an OpenAPI document` };
  }
  return loadOpenApi(source);
}

export async function main(argv: readonly string[]): Promise<number> {
  const args = [...argv];
  const ifPresent = args.includes("--if-present");
  const tokenAt = args.indexOf("--token-file");
  const tokenFile = tokenAt >= 0 ? args[tokenAt + 1] : undefined;
  const positional = args.filter((a, i) => !a.startsWith("--") && (tokenAt < 0 || i !== tokenAt + 1));
  const source = positional[0];
  if (!source) {
    console.error("usage: check-backend-openapi [--if-present] [--token-file <path>] <openapi.json | URL>");
    return 2;
  }
  const resolved = /^https?:\/\//i.test(source) ? source : resolve(source);
  const theirs = await loadTheirs(resolved, tokenFile);
  if (!theirs.ok) {
    if (theirs.absent && ifPresent) {
      console.log(`note: ${theirs.message}; the backend drift check was skipped.`);
      return 0;
    }
    console.error(`check-backend-openapi: ${theirs.message}`);
    return 1;
  }
  const ours = JSON.parse(await readFile(OUR_DESCRIPTION, "utf8")) as JsonObject;
  const report = compareDescriptions(ours, theirs.doc);
  const { operations, parameters, bodyFields } = report.checked;
  if (report.differences.length > 0) {
    console.error(`The backend at ${resolved} differs from contract/resmon-api.openapi.json:`);
    for (const line of report.differences) console.error(`  - ${line}`);
    console.error(`${report.differences.length} difference(s) in ${operations} operations.`);
    return 1;
  }
  console.log(
    `contract/resmon-api.openapi.json matches ${resolved}: ${operations} operations, ${parameters} parameters, ${bodyFields} body fields.`,
  );
  return 0;
}

runIfMain(import.meta.url, "check-backend-openapi", main);
