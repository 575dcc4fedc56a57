import { markNotReported } from "./reported.js";
import { asArray, asRecord, isRecord, numOrNull, parseJsonText, stringList, strOrNull } from "./values.js";

/** A source identifier as resmon's saved selection accepts it (its coverage audit's `_slug`). */
const SOURCE_SLUG = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
const NOT_A_SOURCE = new Set(["all", "default", "defaults", "all_repositories"]);
const isSourceSlug = (v: unknown): v is string =>
  typeof v === "string" && SOURCE_SLUG.test(v) && !NOT_A_SOURCE.has(v.toLowerCase());

/** Keys an older or hand-made row may name sources under, which resmon's dispatcher does not read. */
const UNREAD_SOURCE_KEYS = ["sources", "source"] as const;

/** What a stored value was, in a note a model reads: JSON, held short. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/**
 * The sources resmon's dispatcher will search, read as resmon reads the saved selection: the
 * `repositories` list (deduplicated, exact identifiers), else the singular `repository`; nothing
 * else. Where that is none, `note` says why, naming a key resmon does not read and what it held
 * (resmon 2.3's own fixture stores `{"keywords": ..., "sources": [...]}`, and running such a
 * routine searches nothing: 0 results, "Saved source selection is empty or malformed").
 */
export function routineSources(p: Record<string, unknown>): { sources: string[]; note?: string } {
  const unread = UNREAD_SOURCE_KEYS.filter((k) => Object.hasOwn(p, k)).map(
    (k) => `\`${k}\` (${shown(p[k])})`,
  );
  const ignored =
    unread.length > 0
      ? ` It also names ${unread.join(" and ")}, ${unread.length > 1 ? "keys" : "a key"} resmon does not read.`
      : "";
  if (Object.hasOwn(p, "repositories")) {
    const many = p.repositories;
    if (Array.isArray(many) && many.length > 0 && many.every(isSourceSlug)) {
      const sources = [...new Set(many)];
      return ignored ? { sources, note: `Sources are the saved \`repositories\`.${ignored}` } : { sources };
    }
    return {
      sources: [],
      note: `The saved \`repositories\` (${shown(many)}) is empty or malformed, so a run of this routine searches no source.${ignored}`,
    };
  }
  if (isSourceSlug(p.repository)) {
    const sources = [p.repository];
    return ignored ? { sources, note: `Sources are the saved \`repository\`.${ignored}` } : { sources };
  }
  const none =
    "resmon reads a routine's sources from `repositories` (or one `repository`) only, so a run of this routine searches no source.";
  if (unread.length > 0)
    return {
      sources: [],
      note: `The saved parameters name sources under ${unread.join(" and ")}, a key resmon does not read: ${none}`,
    };
  return { sources: [], note: `The saved parameters hold no \`repositories\`: ${none}` };
}

/**
 * A routine's `parameters` column is JSON text: `{query, repositories[], entity?}` (older rows:
 * keywords/sources). Sources are what resmon's dispatcher will use (routineSources); unreadable
 * parameters report none (undefined). A stored string is one keyword, as resmon keeps it (a run of
 * the routine records `keywords: [query]`): splitting it on spaces would report keywords resmon never had.
 */
export function routineParameters(raw: unknown): {
  sources: string[] | undefined;
  sourcesNote: string | undefined;
  keywords: string[] | undefined;
  entity: unknown;
} {
  const parsed = parseJsonText(raw);
  const p = asRecord(parsed);
  const words = p.query ?? p.keywords;
  const read = isRecord(parsed) ? routineSources(p) : undefined;
  return {
    sources: read?.sources,
    sourcesNote: read?.note,
    keywords: words === undefined ? undefined : stringList(words),
    entity: p.entity ?? null,
  };
}

/**
 * missed_fires as resmon sent it (`{count, last_due_at_utc}`, on every row of resmon 2.3+), else
 * undefined: one without its last_due_at_utc is unreadable, not "never due" (null).
 */
export function missedFires(raw: unknown): { count: number; last_due_at_utc: string | null } | undefined {
  if (!isRecord(raw) || !Number.isInteger(raw.count) || !Object.hasOwn(raw, "last_due_at_utc"))
    return undefined;
  return { count: raw.count as number, last_due_at_utc: strOrNull(raw.last_due_at_utc) };
}

/**
 * What is wrong with a routine's missed_fires on this resmon, or null when nothing is. resmon 2.3+
 * reports them on every routine (`served`), so there a row without them is not passed on; an older
 * resmon never had them, so their absence there is named in not_reported. Sent unreadable is wrong
 * on any resmon.
 */
export function missedFiresProblem(stored: unknown, served: boolean): string | null {
  const r = asRecord(stored);
  if (missedFires(r.missed_fires) !== undefined) return null;
  if (Object.hasOwn(r, "missed_fires")) return "not {count, last_due_at_utc}";
  return served ? "absent, from a resmon (2.3+) that reports it on every routine" : null;
}

/** A resmon without missed fires (before 2.3) never sent them: named in not_reported, never a zero. */
function markMissedFiresUnreported(
  answer: Record<string, unknown>,
  r: Record<string, unknown>,
  served: boolean,
) {
  if (!served && !Object.hasOwn(r, "missed_fires")) markNotReported(answer, ["missed_fires"]);
}

/** is_active as resmon stores it (0/1 in the list, a boolean in the detail); anything else is unknown. */
export function activeFlag(value: unknown): boolean | undefined {
  if (value === true || value === 1) return true;
  if (value === false || value === 0) return false;
  return undefined;
}

/**
 * Keys with no value resmon reported are left off: the tool's output schema (for missed fires,
 * missedFiresProblem) then names what is missing (upstream_error) instead of the answer claiming an
 * inactive routine with no missed fires.
 */
function reportedOnly(answer: Record<string, unknown>): Record<string, unknown> {
  for (const [key, value] of Object.entries(answer)) if (value === undefined) delete answer[key];
  return answer;
}

/** Which of a routine's sources and keywords its stored parameters did not carry. */
function unreadParameters(params: ReturnType<typeof routineParameters>): string[] {
  return (["sources", "keywords"] as const).filter((key) => params[key] === undefined);
}

/** Answer keys read from a routine's text columns, by the column each comes from. */
const TEXT_COLUMNS = {
  schedule: "schedule_cron",
  last_run: "last_executed_at",
  last_status: "last_status",
} as const;
type TextKey = keyof typeof TEXT_COLUMNS;

/**
 * Those keys as resmon sent them (null where it said null) and the ones whose column it did not
 * send at all: not reported, never a null that would read "never run".
 */
function textColumns(r: Record<string, unknown>, keys: readonly TextKey[]) {
  const values: Partial<Record<TextKey, string | null>> = {};
  const unsent: TextKey[] = [];
  for (const key of keys) {
    const column = TEXT_COLUMNS[key];
    if (Object.hasOwn(r, column)) values[key] = strOrNull(r[column]);
    else unsent.push(key);
  }
  return { values, unsent };
}

/**
 * The list row: id, name, schedule, sources, keywords, last run, active, missed fires.
 * `missedFiresServed`: this resmon reports missed fires (2.3+; see missedFiresProblem).
 */
export function routineRow(stored: unknown, missedFiresServed: boolean): Record<string, unknown> {
  const r = asRecord(stored);
  const params = routineParameters(r.parameters);
  const text = textColumns(r, ["schedule", "last_run", "last_status"]);
  const row = reportedOnly({
    id: r.id ?? null,
    name: strOrNull(r.name),
    schedule: text.values.schedule,
    sources: params.sources,
    sources_note: params.sourcesNote,
    keywords: params.keywords,
    last_run: text.values.last_run,
    last_status: text.values.last_status,
    active: activeFlag(r.is_active),
    missed_fires: missedFires(r.missed_fires),
  });
  markNotReported(row, [...text.unsent, ...unreadParameters(params)]);
  markMissedFiresUnreported(row, r, missedFiresServed);
  return row;
}

/** The full record: the stored row with parameters read, is_active as a boolean (`missedFiresServed` as for routineRow). */
export function routineRecord(row: unknown, missedFiresServed: boolean): Record<string, unknown> {
  const r = asRecord(row);
  const params = routineParameters(r.parameters);
  const { parameters: raw, ...rest } = r;
  const parsed = parseJsonText(raw);
  const active = activeFlag(r.is_active);
  const text = textColumns(r, ["schedule"]);
  const answer = reportedOnly({
    ...rest,
    parameters: isRecord(parsed) ? parsed : (raw ?? null),
    schedule: text.values.schedule,
    sources: params.sources,
    sources_note: params.sourcesNote,
    keywords: params.keywords,
    entity: params.entity,
    active,
    is_active: active,
    missed_fires: missedFires(r.missed_fires),
    missed_fire_details: Array.isArray(r.missed_fire_details) ? r.missed_fire_details : undefined,
  });
  markNotReported(answer, [...text.unsent, ...unreadParameters(params)]);
  markMissedFiresUnreported(answer, r, missedFiresServed);
  if (!Array.isArray(r.missed_fire_details)) markNotReported(answer, ["missed_fire_details"]);
  return answer;
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
 * or URL. Only what resmon's summary said: a channel it did not count is left out (not zero), and
 * without its target counts the whole summary is null, so the key is left off rather than zeroed.
 */
export function deliverySummary(body: unknown): Record<string, unknown> | null {
  const b = asRecord(body);
  const summary = asRecord(b.summary);
  const reported = summary.targets ?? summary.targets_by_channel;
  const enabled = numOrNull(summary.enabled_target_count);
  const awaiting = numOrNull(summary.awaiting_review);
  if (!isRecord(reported) || enabled === null || awaiting === null) return null;
  const byChannel: Record<string, number> = {};
  for (const channel of CHANNELS) {
    const count = numOrNull(reported[channel]);
    if (count !== null) byChannel[channel] = count;
  }
  const snapshots = asArray(b.deliveries)
    .map((d) => asRecord(d).target_snapshot)
    .filter((s): s is string => typeof s === "string");
  // summary.last null is resmon saying there was no delivery yet; no `last` at all is not reported.
  const last = isRecord(summary.last) ? summary.last : {};
  const answer: Record<string, unknown> = {
    targets_by_channel: byChannel,
    enabled_target_count: enabled,
    awaiting_review: awaiting,
    last_state: strOrNull(last.state),
    last_channel: strOrNull(last.channel),
    last_attempts: numOrNull(last.attempts),
    last_error: withoutDestinations(strOrNull(last.last_error), snapshots),
    last_delivered_at_utc: strOrNull(last.delivered_at_utc),
  };
  if (!Object.hasOwn(summary, "last")) markNotReported(answer, ["last"]);
  return answer;
}

/** The coverage audit's answer keys, each from the first of resmon's names for it that it sent. */
const COVERAGE_FIELDS: readonly (readonly [string, ...string[]])[] = [
  ["intent", "intent"],
  ["measured_against", "intent_source"],
  ["model", "model"],
  ["results", "results"],
  ["results_embedded", "results_embedded"],
  ["off_target_count", "off_target_total", "off_target_count"],
  ["off_target", "off_target"],
  ["missed_in_corpus_count", "missed_in_corpus_total", "missed_in_corpus_count"],
  [
    "missed_in_corpus_count_is_lower_bound",
    "missed_in_corpus_total_is_lower_bound",
    "missed_in_corpus_count_is_lower_bound",
  ],
  ["missed_in_corpus", "missed_in_corpus"],
  ["distribution", "distribution"],
  ["reason", "reason"],
  ["cannot_see", "cannot_see"],
];

/**
 * The coverage audit with totals (never page lengths) and the lower-bound flag, as resmon sent
 * them: a count, list or flag it did not send is marked not reported, never zero, empty or false.
 */
export function coverageAudit(body: unknown): Record<string, unknown> {
  const b = asRecord(body);
  const answer: Record<string, unknown> = {};
  const missing: string[] = [];
  for (const [key, ...names] of COVERAGE_FIELDS) {
    const name = names.find((n) => Object.hasOwn(b, n));
    if (name === undefined) missing.push(key);
    else answer[key] = b[name];
  }
  markNotReported(answer, missing);
  return answer;
}
