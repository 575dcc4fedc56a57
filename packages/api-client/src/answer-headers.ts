/**
 * An answer's headers, read as fetch's `Headers` reads them (names in any case; a header sent more
 * than once is its values joined by ", "), without `Headers` itself: the first touch of that global
 * makes Node load its whole fetch implementation (~25 ms on a server's first tool call).
 */
export class AnswerHeaders {
  readonly #values = new Map<string, string>();

  /** From Node's `IncomingMessage.headersDistinct` or any record of names to values. */
  constructor(init: Readonly<Record<string, string | readonly string[] | undefined>> = {}) {
    for (const [name, value] of Object.entries(init)) {
      if (value === undefined) continue;
      this.#values.set(name.toLowerCase(), typeof value === "string" ? value : value.join(", "));
    }
  }

  get(name: string): string | null {
    return this.#values.get(name.toLowerCase()) ?? null;
  }

  has(name: string): boolean {
    return this.#values.has(name.toLowerCase());
  }

  /** Each header as (value, lower-cased name), in name order. */
  forEach(callback: (value: string, name: string) => void): void {
    for (const [name, value] of this.entries()) callback(value, name);
  }

  /** [lower-cased name, value] pairs, in name order as `Headers` gives them. */
  *entries(): IterableIterator<[string, string]> {
    yield* [...this.#values].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}
