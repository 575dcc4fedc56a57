/** pack-check's outcomes: each check records a line as it finishes; main sums them up. */

export type Outcome = { name: string; ok: boolean; detail: string };

/** Every outcome recorded so far, in the order the checks finished. */
export const outcomes: Outcome[] = [];

export function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

export function record(name: string, ok: boolean, detail: string): void {
  outcomes.push({ name, ok, detail });
  say(`${ok ? "PASS" : "FAIL"} ${name}${detail ? ` — ${detail}` : ""}`);
}
