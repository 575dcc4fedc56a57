/**
 * server.json against the MCP Registry's **published** schema (the real text, not the zod restatement
 * in registry-schema.ts that the offline tests use).
 *
 *   tsx src/check-published-schema.ts                     fetch the schema named by server.json's `$schema`
 *   tsx src/check-published-schema.ts --schema-file F     use a copy of it already on disk
 *
 * It needs the network (or a copy), so it runs in the GitHub workflows, never in `pnpm test`; the
 * schema is not vendored here. Draft-07 (what the schema declares), formats checked by ajv-formats,
 * `strict: false` only so that ajv does not refuse the schema for an annotation keyword (`example`).
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { Ajv, type ErrorObject } from "ajv";
import { SERVER_JSON } from "./release-meta.js";
import { runIfMain } from "./run-main.js";

// ajv-formats is CommonJS whose module.exports is the plugin; required so the types say so too.
const addFormats = createRequire(import.meta.url)("ajv-formats") as (ajv: Ajv) => Ajv;

/** The problems ajv finds in `doc` against `schema`, one line each (empty when it is valid). */
export function publishedSchemaProblems(schema: object, doc: unknown): string[] {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  if (validate(doc)) return [];
  return (validate.errors ?? []).map(
    (e: ErrorObject) => `${e.instancePath || "(top)"}: ${e.message ?? e.keyword}`,
  );
}

async function loadSchema(url: string, file: string | undefined): Promise<object> {
  if (file) return JSON.parse(await readFile(file, "utf8")) as object;
  const answer = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  if (!answer.ok) throw new Error(`${url} answered ${answer.status}`);
  return (await answer.json()) as object;
}

export async function main(argv: string[]): Promise<number> {
  const at = argv.indexOf("--schema-file");
  const file = at >= 0 ? argv[at + 1] : undefined;
  if (at >= 0 && !file) throw new Error("--schema-file needs a path");
  const doc = JSON.parse(await readFile(SERVER_JSON, "utf8")) as { $schema?: unknown };
  if (typeof doc.$schema !== "string") throw new Error("server.json has no $schema");
  const schema = await loadSchema(doc.$schema, file);
  const id = (schema as { $id?: unknown }).$id;
  if (id !== doc.$schema)
    throw new Error(`the schema's $id is ${String(id)}, not server.json's $schema ${doc.$schema}`);
  const problems = publishedSchemaProblems(schema, doc);
  for (const p of problems) console.error(`server.json ${p}`);
  if (problems.length > 0) return 1;
  console.log(`server.json is valid against ${doc.$schema}`);
  return 0;
}

runIfMain(import.meta.url, "check-published-schema", main);
