/**
 * A field whose name says it holds a credential value (api_key, openai_api_key, token,
 * smtp_password, client_secret, credentials …). Names that only mention one — credential_alias,
 * credential_status, key_required, keywords, authors, keys — are not matched.
 */
const CREDENTIAL_FIELD =
  /(^|[_-])(api[_-]?key|apikey|secret|client[_-]?secret|password|passwd|passphrase|token|access[_-]?token|refresh[_-]?token|bearer|private[_-]?key|credentials?)$/i;

export function isCredentialField(name: string): boolean {
  return CREDENTIAL_FIELD.test(name);
}

/**
 * Drop every credential-named field, at any depth, from what a tool is about to answer. Handlers
 * pass some of resmon's objects on as they come (health's scheduler and daemon, a run's parameters,
 * an error's detail); this keeps a credential that resmon ever put there from leaving with them.
 */
export function withoutCredentialFields<T>(value: T): T {
  return strip(value) as T;
}

function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (!isCredentialField(k)) out[k] = strip(v);
    }
    return out;
  }
  return value;
}
