import { asArray, asRecord, isRecord, numOrNull, parseJsonText, stringList, strOrNull } from "./values.js";

/** A routine's `parameters` column is JSON text: `{query, repositories[], entity?}` (older rows: keywords/sources). */
export function routineParameters(raw: unknown): { sources: string[]; keywords: string[]; entity: unknown } {
  const p = asRecord(parseJsonText(raw));
  const words = p.query ?? p.keywords;
  return {
    sources: stringList(p.repositories ?? p.sources),
    keywords: typeof words === "string" ? words.split(/\s+/).filter(Boolean) : stringList(words),
    entity: p.entity ?? null,
  };
}

export function missedFires(raw: unknown): { count: number; last_due_at_utc: string | null } {
  const m = asRecord(raw);
  return { count: numOrNull(m.count) ?? 0, last_due_at_utc: strOrNull(m.last_due_at_utc) };
}

/** The list row: id, name, schedule, sources, keywords, last run, active, missed fires. */
export function routineRow(row: unknown): Record<string, unknown> {
  const r = asRecord(row);
  const params = routineParameters(r.parameters);
  return {
    id: r.id ?? null,
    name: strOrNull(r.name),
    schedule: strOrNull(r.schedule_cron),
    sources: params.sources,
    keywords: params.keywords,
    last_run: strOrNull(r.last_executed_at),
    last_status: strOrNull(r.last_status),
    active: r.is_active === true || r.is_active === 1,
    missed_fires: missedFires(r.missed_fires),
  };
}

/** The full record: the stored row with parameters read, is_active as a boolean. */
export function routineRecord(row: unknown): Record<string, unknown> {
  const r = asRecord(row);
  const params = routineParameters(r.parameters);
  const { parameters: raw, ...rest } = r;
  const parsed = parseJsonText(raw);
  return {
    ...rest,
    parameters: isRecord(parsed) ? parsed : (raw ?? null),
    schedule: strOrNull(r.schedule_cron),
    sources: params.sources,
    keywords: params.keywords,
    entity: params.entity,
    active: r.is_active === true || r.is_active === 1,
    is_active: r.is_active === true || r.is_active === 1,
    missed_fires: missedFires(r.missed_fires),
    missed_fire_details: asArray(r.missed_fire_details),
  };
}

const CHANNELS = ["email", "folder", "webhook", "feed"] as const;
const URL_PATTERN = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi;
const EMAIL_PATTERN = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
const PATH_PATTERN = /(?:[A-Za-z]:\\|\/)(?:[^\s"'<>]+[/\\])+[^\s"'<>]*/g;
const UNC_PATTERN = /\\\\[^\s"'<>]+/g;
const HOME_PATTERN = /~[/\\][^\s"'<>]*/g;
const HOST_PORT_PATTERN = /\b[a-z0-9-]+(?:\.[a-z0-9-]+)+:\d{1,5}\b/gi;

/** last_error is prose from a failure: strip any destination that could ride along, as resmon's adapters do. */
function withoutDestinations(text: string | null, snapshots: string[]): string | null {
  if (text === null) return null;
  let out = text;
  for (const snapshot of snapshots) {
    if (snapshot.length >= 3) out = out.split(snapshot).join("<target>");
  }
  return out
    .replace(URL_PATTERN, "<target>")
    .replace(EMAIL_PATTERN, "<address>")
    .replace(UNC_PATTERN, "<target>")
    .replace(HOME_PATTERN, "<target>")
    .replace(PATH_PATTERN, "<target>")
    .replace(HOST_PORT_PATTERN, "<target>");
}

/**
 * Where a routine's report goes, as counts, and whether the last one arrived: no address, directory
 * or URL. null when resmon sent no target counts: the key is then left off, never reported as zero.
 */
export function deliverySummary(body: unknown): Record<string, unknown> | null {
  const b = asRecord(body);
  const summary = asRecord(b.summary);
  const reported = summary.targets ?? summary.targets_by_channel;
  if (!isRecord(reported)) return null;
  const targets = reported;
  const byChannel: Record<string, number> = {};
  for (const channel of CHANNELS) byChannel[channel] = numOrNull(targets[channel]) ?? 0;
  const enabled =
    numOrNull(summary.enabled_target_count) ?? Object.values(byChannel).reduce((a, n) => a + n, 0);
  const deliveries = asArray(b.deliveries);
  const last = isRecord(summary.last) ? summary.last : asRecord(deliveries[0]);
  const hasLast = Object.keys(last).length > 0;
  const snapshots = deliveries
    .map((d) => asRecord(d).target_snapshot)
    .filter((s): s is string => typeof s === "string");
  const awaiting =
    numOrNull(summary.awaiting_review) ??
    deliveries.filter((d) => asRecord(d).state === "awaiting_review").length;
  return {
    targets_by_channel: byChannel,
    enabled_target_count: enabled,
    awaiting_review: awaiting,
    last_state: hasLast ? strOrNull(last.state) : null,
    last_channel: hasLast ? strOrNull(last.channel) : null,
    last_attempts: hasLast ? numOrNull(last.attempts) : null,
    last_error: hasLast ? withoutDestinations(strOrNull(last.last_error), snapshots) : null,
    last_delivered_at_utc: hasLast ? strOrNull(last.delivered_at_utc) : null,
  };
}

/** The coverage audit with totals (never page lengths) and the lower-bound flag. */
export function coverageAudit(body: unknown): Record<string, unknown> {
  const b = asRecord(body);
  const offTarget = asArray(b.off_target);
  const missed = asArray(b.missed_in_corpus);
  return {
    intent: strOrNull(b.intent),
    measured_against: strOrNull(b.intent_source),
    model: b.model ?? null,
    results: b.results ?? null,
    results_embedded: b.results_embedded ?? null,
    off_target_count: numOrNull(b.off_target_total) ?? numOrNull(b.off_target_count),
    off_target: offTarget,
    missed_in_corpus_count: numOrNull(b.missed_in_corpus_total) ?? numOrNull(b.missed_in_corpus_count),
    missed_in_corpus_count_is_lower_bound:
      b.missed_in_corpus_total_is_lower_bound === true || b.missed_in_corpus_count_is_lower_bound === true,
    missed_in_corpus: missed,
    distribution: b.distribution ?? null,
    reason: strOrNull(b.reason),
    cannot_see: strOrNull(b.cannot_see),
  };
}
