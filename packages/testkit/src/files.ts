import { randomBytes } from "node:crypto";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** A fresh token the way resmon mints one: 32 random bytes, URL-safe base64, 43 characters. */
export function mintToken(): string {
  return randomBytes(32).toString("base64url");
}

export function tokenFilePath(stateDir: string, port: number): string {
  return join(stateDir, `api-token-${port}`);
}

/** Owner-only, written beside the target and renamed into place so a reader never sees half a file. */
export function writeAtomic(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  writeFileSync(temp, content, { mode: 0o600 });
  renameSync(temp, path);
}

export function removeQuietly(path: string | null): void {
  if (path) rmSync(path, { force: true });
}
