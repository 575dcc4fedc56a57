/**
 * A field whose name says it holds a credential value (api_key, openai_api_key, token,
 * smtp_password, client_secret, credentials …). Names that only mention one — credential_alias,
 * credential_status, key_required, keywords, authors, keys — are not matched.
 */
const CREDENTIAL_FIELD =
  /(^|[_-])(api[_-]?key|apikey|secret|client[_-]?secret|password|passwd|passphrase|token|access[_-]?token|refresh[_-]?token|bearer|private[_-]?key|credentials?)$/i;

/** Answers repeat the same few field names (100 papers, one shape), so each name is tested once. */
const verdicts = new Map<string, boolean>();
const MAX_REMEMBERED = 4096;

export function isCredentialField(name: string): boolean {
  let verdict = verdicts.get(name);
  if (verdict === undefined) {
    verdict = CREDENTIAL_FIELD.test(name);
    if (verdicts.size < MAX_REMEMBERED) verdicts.set(name, verdict);
  }
  return verdict;
}

/**
 * Drop every credential-named field, at any depth, from what a tool is about to answer. Handlers
 * pass some of resmon's objects on as they come (health's scheduler and daemon, a run's parameters,
 * an error's detail); this keeps a credential that resmon ever put there from leaving with them.
 * Only the objects on the way to a dropped field are copied: an answer without one is returned as
 * it is (the usual case, and no garbage for a 100-paper page).
 */
export function withoutCredentialFields<T>(value: T): T {
  return strip(value) as T;
}

/** An own property even for the name "__proto__" (a plain assignment would set the prototype). */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

function strip(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      const stripped = strip(item);
      if (stripped !== item && out === undefined) out = value.slice(0, i);
      out?.push(stripped);
    }
    return out ?? value;
  }
  const record = value as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  const keys = Object.keys(record);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const item = record[key];
    const drop = isCredentialField(key);
    const stripped = drop ? undefined : strip(item);
    if (out === undefined && (drop || stripped !== item)) {
      out = {};
      for (let j = 0; j < i; j++) {
        const earlier = keys[j] as string;
        put(out, earlier, record[earlier]);
      }
    }
    if (out !== undefined && !drop) put(out, key, stripped);
  }
  return out ?? value;
}
