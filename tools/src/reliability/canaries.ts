/**
 * What must never leave the server: every token a stand-in minted during the run, and canary
 * credential values and aliases the suite plants. Every byte each server process writes is checked
 * against them, and against stack-trace and raw-exception text, as it arrives.
 */
export class Canaries {
  private readonly values = new Set<string>();

  add(value: string): void {
    if (value.length >= 8) this.values.add(value);
  }

  /** The canaries found in a piece of text (names them by length and prefix only, never whole). */
  foundIn(text: string): string[] {
    const hits: string[] = [];
    for (const v of this.values) if (text.includes(v)) hits.push(`${v.slice(0, 4)}…(${v.length} chars)`);
    return hits;
  }

  get size(): number {
    return this.values.size;
  }
}

/** Shared by the whole run: every group adds its tokens and planted values here. */
export const CANARIES = new Canaries();

/** Canary credential values and aliases planted in arguments and in faulted backend answers. */
export const CANARY_VALUES = [
  "sk-ant-api03-CANARYqZx7Rk2Lw9Vt4Np8Hs6Jd3Fb1Gm5",
  "sk-proj-CANARYmN4bV7cX2zL8kJ6hG3fD9sA1qW5eR",
  "ghp_CANARY0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6",
];
export const CANARY_ALIAS = "zz_canary_unlisted_api_key";
for (const v of [...CANARY_VALUES, CANARY_ALIAS]) CANARIES.add(v);

/** A JavaScript stack frame, or an exception's own text, leaking into what the server writes. */
const LEAKS: readonly [RegExp, string][] = [
  [/ {4}at [^\s]/, "stack frame ('    at ')"],
  [/\\n {4}at /, "escaped stack frame"],
  [/\b(?:Type|Range|Reference|Syntax|Internal)?Error: /, "exception text ('Error:')"],
  [/node:internal\//, "node internals path"],
];

export function leaksIn(text: string): string[] {
  return LEAKS.filter(([re]) => re.test(text)).map(([, name]) => name);
}
