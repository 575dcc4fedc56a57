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
