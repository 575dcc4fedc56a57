import type { DeclaredRoute } from "./declared.js";
import type { Query } from "./reply.js";

/** Names of query parameters and body fields the real OpenAPI does not declare for this route. */
export function undeclared(
  route: DeclaredRoute,
  query: Query,
  body: unknown,
): { query: string[]; body: string[]; bodyNotAllowed: boolean } {
  const q = Object.keys(query).filter((k) => !route.query.includes(k));
  let fields: string[] = [];
  let bodyNotAllowed = false;
  if (body !== undefined) {
    if (!route.body) bodyNotAllowed = true;
    else if (typeof body === "object" && body !== null && !Array.isArray(body)) {
      const declared = route.body.fields;
      fields = Object.keys(body).filter((k) => !declared.includes(k));
    }
  }
  return { query: q, body: fields, bodyNotAllowed };
}

export interface FieldError {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
}

const BOOL_WORDS = new Set(["true", "false", "1", "0", "yes", "no", "on", "off", "t", "f", "y", "n"]);

/** Pydantic's lax-mode check of one value against an OpenAPI type: null when it is accepted. */
function check(type: string, value: unknown, loc: (string | number)[]): FieldError[] {
  const nullable = type.endsWith("?");
  const base = nullable ? type.slice(0, -1) : type;
  if (value === null)
    return nullable
      ? []
      : [
          {
            type: `${base === "integer" ? "int" : base === "boolean" ? "bool" : base === "object" ? "dict" : base === "array" ? "list" : base.startsWith("array") ? "list" : "string"}_type`,
            loc,
            msg: "Input should not be None",
            input: value,
          },
        ];
  if (base === "any") return [];
  if (base === "string")
    return typeof value === "string"
      ? []
      : [{ type: "string_type", loc, msg: "Input should be a valid string", input: value }];
  if (base === "integer") {
    if (typeof value === "number" && Number.isInteger(value)) return [];
    if (typeof value === "string" && /^\s*-?\d+\s*$/.test(value)) return [];
    if (typeof value === "boolean") return [];
    return [
      {
        type: typeof value === "string" ? "int_parsing" : "int_type",
        loc,
        msg:
          typeof value === "string"
            ? "Input should be a valid integer, unable to parse string as an integer"
            : "Input should be a valid integer",
        input: value,
      },
    ];
  }
  if (base === "boolean") {
    if (typeof value === "boolean" || value === 0 || value === 1) return [];
    if (typeof value === "string" && BOOL_WORDS.has(value.toLowerCase())) return [];
    return [
      {
        type: typeof value === "string" ? "bool_parsing" : "bool_type",
        loc,
        msg: "Input should be a valid boolean",
        input: value,
      },
    ];
  }
  if (base === "object") {
    return typeof value === "object" && !Array.isArray(value)
      ? []
      : [{ type: "dict_type", loc, msg: "Input should be a valid dictionary", input: value }];
  }
  const item = /^array<(.+)>$/.exec(base)?.[1];
  if (item !== undefined) {
    if (!Array.isArray(value))
      return [{ type: "list_type", loc, msg: "Input should be a valid list", input: value }];
    return value.flatMap((v, i) => check(item, v, [...loc, i]));
  }
  return [];
}

/** FastAPI's 422 list for a body that is missing required fields or has ill-typed ones; empty when fine. */
export function bodyErrors(route: DeclaredRoute, body: unknown): FieldError[] {
  if (!route.body) return [];
  if (body === undefined) {
    return route.body.required.length
      ? [{ type: "missing", loc: ["body"], msg: "Field required", input: null }]
      : [];
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return [
      {
        type: "model_attributes_type",
        loc: ["body"],
        msg: "Input should be a valid dictionary or object to extract fields from",
        input: body,
      },
    ];
  }
  const record = body as Record<string, unknown>;
  const errors: FieldError[] = route.body.required
    .filter((f) => record[f] === undefined)
    .map((f) => ({ type: "missing", loc: ["body", f], msg: "Field required", input: body }));
  for (const [field, value] of Object.entries(record)) {
    const type = route.body.types[field];
    if (type) errors.push(...check(type, value, ["body", field]));
  }
  return errors;
}

/** The values pydantic would hand the handler after lax coercion ("25" → 25, "true" → true). */
export function coerceBody(route: DeclaredRoute, body: unknown): unknown {
  if (!route.body || typeof body !== "object" || body === null || Array.isArray(body)) return body;
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(body as Record<string, unknown>)) {
    const type = (route.body.types[field] ?? "any").replace("?", "");
    if (type === "integer" && typeof value === "string") out[field] = Number.parseInt(value, 10);
    else if (type === "integer" && typeof value === "boolean") out[field] = value ? 1 : 0;
    else if (type === "boolean" && (typeof value === "string" || typeof value === "number")) {
      out[field] = ["true", "1", "yes", "on", "t", "y"].includes(String(value).toLowerCase());
    } else out[field] = value;
  }
  return out;
}
