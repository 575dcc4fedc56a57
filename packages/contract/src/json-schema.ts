import { z } from "zod";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * zod 4's JSON Schema, trimmed of what costs tokens and says nothing: the `$schema` dialect line
 * (2020-12 is MCP's default), the ±2^53 bounds z.int() adds, `propertyNames: {type: string}`,
 * `additionalProperties: {}` (allowing extra keys is already the default), and an `anyOf` of bare
 * types, which is written as one `type` list instead.
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
    const trimmed = trim(value);
    const types = key === "anyOf" ? bareTypes(trimmed) : undefined;
    if (types) out.type = types;
    else out[key] = trimmed;
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

/** ["integer", "null"] for anyOf [{type: integer}, {type: null}]; undefined when any branch says more. */
function bareTypes(branches: Json): string[] | undefined {
  if (!Array.isArray(branches)) return undefined;
  const types: string[] = [];
  for (const b of branches) {
    if (typeof b !== "object" || b === null || Array.isArray(b)) return undefined;
    const keys = Object.keys(b);
    if (keys.length !== 1 || typeof b.type !== "string") return undefined;
    types.push(b.type);
  }
  return types;
}
