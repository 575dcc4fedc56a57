/**
 * The BibTeX note a reference manager shows beside an entry that is not verified, or whose retraction
 * status was not checked: the .bib handed to a person carries the warning evidence.md carries.
 */

/** What the note needs of a packet's verification. */
export interface BibVerification {
  verified: boolean;
  no_record: boolean;
  record_changed: readonly string[];
  mismatches: readonly { field: string }[];
  lifecycle_unchecked: boolean;
}

/** The note for one packet, or null when it is verified and its lifecycle was checked. */
export function bibNote(v: BibVerification): string | null {
  const parts: string[] = [];
  if (!v.verified) {
    const why = [
      ...(v.no_record ? ["resmon has no record of it"] : []),
      ...(v.mismatches.length
        ? [`cited ${v.mismatches.map((m) => m.field).join(", ")} differ from resmon's record`]
        : []),
      ...(v.record_changed.length
        ? [`resmon's record changed since retrieval (${v.record_changed.join(", ")})`]
        : []),
    ];
    parts.push(
      `UNVERIFIED against resmon's record${why.length ? `: ${why.join("; ")}` : ""} - check manually`,
    );
  }
  if (v.lifecycle_unchecked) parts.push("retraction status not checked");
  return parts.length ? parts.join(". ") : null;
}

/** BibTeX-safe: no braces or backslashes of our own in the note's value. */
const safe = (text: string) => text.replace(/[{}\\]/g, "");

/**
 * The entry with the note added: a `note` field of its own appended before the closing brace, or
 * resmon's own note kept and ours added after it.
 */
export function withBibNote(entry: string, note: string | null): string {
  if (note === null) return entry;
  const value = safe(note);
  const own = /^([ \t]*note\s*=\s*\{)(.*)(\},?[ \t]*)$/im.exec(entry);
  if (own) return entry.replace(own[0], `${own[1]}${own[2]}. ${value}${own[3]}`);
  const close = entry.lastIndexOf("}");
  if (close < 0) return entry;
  const body = entry.slice(0, close).replace(/\s+$/, "");
  return `${body}${body.endsWith(",") ? "" : ","}\n  note = {${value}}\n}${entry.slice(close + 1)}`;
}
