/**
 * Files a person opens carry no control character from resmon (issue 41 point 5): a title holding
 * ESC or BEL would otherwise run on `cat evidence.md` (a clipboard write through OSC 52, a clear
 * screen). Tab and line feed stay; every other C0 character, DEL and the C1 range go, and a carriage
 * return too (alone it rewrites the line a terminal shows). In a JSON file the same characters go
 * from inside its strings, where JSON.stringify wrote them as escapes (`\u001b`, `\b`, `\f`, `\r`):
 * a viewer that decodes the strings (jq -r) would otherwise write them out.
 */

// C0 except tab (09) and line feed (0a), then DEL and C1.
// A string, not a literal: the linter refuses control characters in a regular expression literal.
const RAW_CONTROL = "[\u0000-\u0008\u000b-\u001f\u007f-\u009f]";
const RAW_CONTROLS = new RegExp(RAW_CONTROL, "g");
/**
 * A JSON escape of one of them, behind an even run of backslashes (an odd run escapes the `\` of
 * the match itself, so `\\u001b` is the text "\u001b", not ESC). The run is kept.
 */
const ESCAPED_CONTROLS =
  /(?<!\\)((?:\\\\)*)\\(?:u00(?:0[0-8bBcCdDeEfF]|1[0-9a-fA-F]|7[fF]|[89][0-9a-fA-F])|[bfr])/g;

/** Text with no control character but tab and line feed. */
export function withoutControls(text: string): string {
  return text.replace(RAW_CONTROLS, "");
}

/** A JSON text whose strings hold no control character but tab and line feed; still the same JSON otherwise. */
export function jsonWithoutControls(text: string): string {
  return withoutControls(text).replace(ESCAPED_CONTROLS, "$1");
}
