import { z } from "zod";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * zod 4's JSON Schema, trimmed of what costs tokens and says nothing: the `$schema` dialect line
 * (2020-12 is MCP's default), the ±2^53 bounds z.int() adds, `propertyNames: {type: string}` and
 * `additionalProperties: {}` (allowing extra keys is already the default). A nullable is an `anyOf`
 * of single-type branches, as zod writes most of them: a `type` list (zod's spelling for a nullable
 * string) is legal, but clients that read `type` as one string reject the tool or drop the
 * constraint, and the MCP Inspector warns on it.
 */
export function toToolJsonSchema(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const raw = z.toJSONSchema(schema, { io }) as Record<string, Json>;
  const { $schema: _dialect, ...rest } = raw;
  return trim(rest) as Record<string, unknown>;
}

function trim(node: Json): Json {
  if (Array.isArray(node)) return node.map(trim);
  if (node === null || typeof node !== "object") return node;
  const out: { [key: string]: Json } = {};
  for (const [key, value] of Object.entries(node)) {
    if ((key === "maximum" || key === "minimum") && Math.abs(Number(value)) === Number.MAX_SAFE_INTEGER)
      continue;
    if (key === "propertyNames" && isStringTypeOnly(value)) continue;
    if (key === "additionalProperties" && isEmptyObject(value)) continue;
    // zod writes a nullable string as a type list; the same meaning, one type per branch.
    if (key === "type" && Array.isArray(value)) out.anyOf = value.map((type) => ({ type }));
    else out[key] = trim(value);
  }
  return out;
}

const isEmptyObject = (v: Json) =>
  typeof v === "object" && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;

const isStringTypeOnly = (v: Json) =>
  typeof v === "object" &&
  v !== null &&
  !Array.isArray(v) &&
  Object.keys(v).length === 1 &&
  v.type === "string";
