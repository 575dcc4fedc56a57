/**
 * Honest local "embeddings": a bag-of-words vector hashed into a fixed number of
 * dimensions. Papers that share words sit close; the ranking is real, just small.
 */
export const EMBEDDING_DIMS = 512;
export const EMBEDDING_MODEL = `testkit-hashed-words-${EMBEDDING_DIMS}`;

const STOP_WORDS = new Set([
  "a",
  "an",
  "and",
  "the",
  "of",
  "for",
  "in",
  "on",
  "with",
  "to",
  "by",
  "from",
  "at",
  "is",
]);

export function words(text: string): string[] {
  return (
    text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length > 1 && !STOP_WORDS.has(w))
      // A crude stem, so "graphs" and "graph" land in the same dimension.
      .map((w) => (w.length > 3 && w.endsWith("s") && !w.endsWith("ss") ? w.slice(0, -1) : w))
  );
}

function hash(word: string): number {
  let h = 2166136261;
  for (let i = 0; i < word.length; i++) {
    h ^= word.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

export function embed(text: string): Float64Array {
  const v = new Float64Array(EMBEDDING_DIMS);
  for (const w of words(text)) {
    const h = hash(w);
    v[h % EMBEDDING_DIMS] = (v[h % EMBEDDING_DIMS] ?? 0) + 1;
    const h2 = (h >>> 8) % EMBEDDING_DIMS;
    v[h2] = (v[h2] ?? 0) + 0.5;
  }
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i] = (v[i] ?? 0) / norm;
  return v;
}

/** Cosine distance in [0, 2], rounded like resmon's payloads. */
export function distance(a: Float64Array, b: Float64Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += (a[i] ?? 0) * (b[i] ?? 0);
  return Math.round((1 - dot) * 10000) / 10000;
}
