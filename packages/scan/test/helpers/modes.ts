import { statSync } from "node:fs";
import { expect } from "vitest";

/**
 * POSIX permission bits, where there are any. Windows has none (node reports 0o666, or 0o444 for a
 * read-only file, whatever was asked): there a file is private by its user profile's ACL, which
 * the scan data dir (%LOCALAPPDATA%) is under, so the bits are checked on Linux and macOS only.
 */
export function expectMode(path: string, mode: number): void {
  if (process.platform === "win32") return;
  expect(statSync(path).mode & 0o777).toBe(mode);
}
