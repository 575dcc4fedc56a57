/**
 * The path of the first key an object in this JSON text repeats ("params.name"), or undefined.
 * JSON.parse keeps the last of two equal keys without a word, while other readers (a proxy, a log,
 * a person) may read the first: a call must mean one thing. The text has parsed, so it is valid JSON.
 */
export function firstDuplicateKey(text: string): string | undefined {
  // Each container: its keys (objects only), its path, and the key or index whose value comes next.
  const stack: { keys: Set<string> | undefined; path: string; at: string | number }[] = [];
  let expectKey = false;
  const tokens = /"[^"\\]*(?:\\.[^"\\]*)*"|[{}[\],]/g;
  for (let match = tokens.exec(text); match; match = tokens.exec(text)) {
    const token = match[0];
    const top = stack.at(-1);
    if (token.startsWith('"')) {
      if (!top?.keys || !expectKey) continue;
      const key = token.includes("\\") ? (JSON.parse(token) as string) : token.slice(1, -1);
      if (top.keys.has(key)) return `${top.path}${key}`;
      top.keys.add(key);
      top.at = key;
      expectKey = false;
    } else if (token === "{" || token === "[") {
      const path = top ? `${top.path}${String(top.at)}.` : "";
      stack.push(token === "{" ? { keys: new Set(), path, at: "" } : { keys: undefined, path, at: 0 });
      expectKey = token === "{";
    } else if (token === ",") {
      if (top?.keys) expectKey = true;
      else if (top) top.at = (top.at as number) + 1;
    } else {
      stack.pop();
      expectKey = false;
    }
  }
  return undefined;
}
