/** How the demo prints what resmon answers: dates and absent values the way a person reads them. */
export type Json = Record<string, unknown>;

export function out(line = ""): void {
  process.stdout.write(`${line}\n`);
}

export function heading(title: string): void {
  out();
  out(`── ${title} ${"─".repeat(Math.max(0, 72 - title.length))}`);
}

export function list(value: unknown): Json[] {
  return Array.isArray(value) ? (value as Json[]) : [];
}

export function obj(value: unknown): Json {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {};
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * resmon writes dates as `2026-03-01`, local times as `2026-10-10T03:00:00` or `2026-02-01 05:37:00`
 * and UTC instants as `2026-03-01T08:51:00.000003+00:00`: shown as `1 Mar 2026`, `10 Oct 2026 03:00`
 * and `1 Mar 2026 08:51 UTC`. Seconds and fractions are dropped; anything else is shown as it came,
 * and an absent value as `fallback`.
 */
export function when(value: unknown, fallback = "never"): string {
  if (typeof value !== "string" || value === "") return fallback;
  const m =
    /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.exec(value);
  if (!m) return value;
  const [, year, month, day, hour, minute, zone] = m;
  const date = `${Number(day)} ${MONTHS[Number(month) - 1] ?? month} ${year}`;
  if (hour === undefined) return date;
  const utc = zone === "Z" || zone === "+00:00" || zone === "+0000" || zone === "-00:00";
  return `${date} ${hour}:${minute}${zone === undefined ? "" : utc ? " UTC" : ` (UTC${zone})`}`;
}

/** A value or a word for its absence: never a bare `null` or `undefined`. */
export function orElse(value: unknown, absent: string): string {
  return value === null || value === undefined || value === "" ? absent : String(value);
}

export function plural(n: unknown, one: string, many = `${one}s`): string {
  return `${n} ${Number(n) === 1 ? one : many}`;
}

export function paperLine(p: Json): string {
  const distance = typeof p.distance === "number" ? `, distance ${p.distance.toFixed(3)}` : "";
  return `  #${p.id} ${p.title} (${p.source}, ${when(p.date, "undated")}${distance})`;
}
