/**
 * One value for the whole process, kept on globalThis under `Symbol.for("resmon-mcp/<name>")`. The
 * published bin is two bundles (the CommonJS front, dist/resmon-mcp.cjs, and the ES module SDK
 * side, build.mjs), each with its own copy of every module both use; a module whose state both
 * halves must see (the scrubber's secrets, call arrivals) keeps it here instead of in a module const.
 */
export function processWide<T>(name: string, make: () => T): T {
  const key = Symbol.for(`resmon-mcp/${name}`);
  const shared = globalThis as { [key: symbol]: unknown };
  if (!(key in shared)) shared[key] = make();
  return shared[key] as T;
}
