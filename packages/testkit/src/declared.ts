/**
 * What resmon's OpenAPI declares for a route: its query parameters and the top-level body fields
 * (required ones, and each field's type). The facts are generated/declared.ts, which
 * tools/src/gen-declared.ts writes from contract/resmon-api.openapi.json for every operation; the
 * testkit refuses anything not declared there, where resmon would silently ignore it.
 */
import { DECLARED } from "./generated/declared.js";

export interface DeclaredRoute {
  readonly method: string;
  readonly path: string;
  readonly query: readonly string[];
  readonly body: {
    readonly fields: readonly string[];
    readonly required: readonly string[];
    /** JSON type per field: "string", "integer", "boolean", "object", "array<item>"; a trailing "?" = nullable. */
    readonly types: Readonly<Record<string, string>>;
  } | null;
}

/** The declared facts of `METHOD path`; a route the API description lacks is a mistake in the testkit. */
export function declaredOf(key: string): DeclaredRoute {
  const found = DECLARED[key];
  if (!found) throw new Error(`${key} is not an operation of contract/resmon-api.openapi.json`);
  return found;
}
