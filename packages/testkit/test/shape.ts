/**
 * Compare the shape of two JSON values: same keys and JSON types, recursively. Values and ids may
 * differ; null matches anything (a field that is null in one record holds a value in another).
 */

/** Keys whose objects are maps keyed by data (channel names, bases, slugs), not fixed fields. */
const MAP_KEYS = new Set(["targets", "by_basis", "groups", "credentials", "identifiers", "default_starts"]);

/** Keys the spec (contract 1.0, a newer resmon) adds beyond what the captured 2.3 backend returned. */
export const SPEC_ADDITIONS = new Set([
  "in_part",
  "zero_detail",
  "queries_as_sent",
  "scheduler",
  "daemon",
  "result_order",
  "constraints",
  "notices",
  "missed_reference_distance",
  "cannot_judge",
]);

function kind(x: unknown): string {
  if (x === null) return "null";
  if (Array.isArray(x)) return "array";
  return typeof x;
}

export function shapeDiff(sample: unknown, actual: unknown, path = "$"): string[] {
  const ks = kind(sample);
  const ka = kind(actual);
  if (ks === "null" || ka === "null") return [];
  if (ks !== ka) return [`${path}: sample is ${ks}, testkit gave ${ka}`];
  if (ks === "array") {
    const s = sample as unknown[];
    const a = actual as unknown[];
    if (s.length === 0 || a.length === 0) return [];
    const problems: string[] = [];
    a.forEach((item, i) => {
      const tries = s.map((candidate) => shapeDiff(candidate, item, `${path}[${i}]`));
      if (tries.every((t) => t.length > 0)) problems.push(...(tries[0] ?? []));
    });
    return problems;
  }
  if (ks !== "object") return [];
  const s = sample as Record<string, unknown>;
  const a = actual as Record<string, unknown>;
  const key = path.split(".").pop() ?? "";
  if (MAP_KEYS.has(key)) {
    const values = Object.values(s);
    if (values.length === 0) return [];
    return Object.entries(a).flatMap(([k, v]) => {
      const tries = values.map((sv) => shapeDiff(sv, v, `${path}.${k}`));
      return tries.every((t) => t.length > 0) ? (tries[0] ?? []) : [];
    });
  }
  const problems: string[] = [];
  for (const k of Object.keys(s)) {
    if (!(k in a)) problems.push(`${path}.${k}: missing from the testkit's answer`);
    else problems.push(...shapeDiff(s[k], a[k], `${path}.${k}`));
  }
  for (const k of Object.keys(a)) {
    if (!(k in s) && !SPEC_ADDITIONS.has(k)) problems.push(`${path}.${k}: not in the real answer`);
  }
  return problems;
}
