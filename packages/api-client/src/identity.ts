/** The running app's identity, as GET /api/health and GET /api/executions/{exec_id} report it. */

export interface Identity {
  contract_version: 1;
  runtime_id: string;
  schema_version: number | null;
  corpus_id: string | null;
  build_id: string | null;
}

export type IdentityResult =
  | { ok: true; identity: Identity }
  | { ok: false; problem: "missing" | "malformed" | "unsupported" };

const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** True when Python's str(UUID(s)) == s and the UUID is version 4 (RFC 4122 variant, lowercase). */
export function isCanonicalUuid4(s: string): boolean {
  return typeof s === "string" && UUID4.test(s);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function isNullableString(value: unknown): value is string | null {
  return value === null || typeof value === "string";
}

/**
 * Reads `body.identity`. Missing when the body has no identity; unsupported when it declares a
 * contract_version other than 1; malformed when any field has the wrong shape.
 */
export function parseIdentity(body: unknown): IdentityResult {
  if (!isRecord(body) || !("identity" in body) || body.identity === undefined || body.identity === null) {
    return { ok: false, problem: "missing" };
  }
  const raw = body.identity;
  if (!isRecord(raw)) return { ok: false, problem: "malformed" };
  const version = raw.contract_version;
  if (typeof version !== "number" || !Number.isInteger(version)) return { ok: false, problem: "malformed" };
  if (version !== 1) return { ok: false, problem: "unsupported" };
  const { runtime_id, schema_version, corpus_id, build_id } = raw;
  if (typeof runtime_id !== "string" || !isCanonicalUuid4(runtime_id))
    return { ok: false, problem: "malformed" };
  const schemaOk =
    schema_version === null || (typeof schema_version === "number" && Number.isInteger(schema_version));
  if (!schemaOk || !isNullableString(corpus_id) || !isNullableString(build_id)) {
    return { ok: false, problem: "malformed" };
  }
  return {
    ok: true,
    identity: {
      contract_version: 1,
      runtime_id,
      schema_version: schema_version as number | null,
      corpus_id,
      build_id,
    },
  };
}
