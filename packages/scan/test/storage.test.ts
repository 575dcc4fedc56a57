import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultScanDataDir } from "../src/data-dir.js";
import { ScanError } from "../src/errors.js";
import { ensureDir, writeAtomic } from "../src/fsio.js";
import { acquireLock } from "../src/lock.js";
import { deadPid } from "./helpers/process.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "scan-store-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("scan data dir", () => {
  it("RESMON_MCP_SCAN_DATA, else the platform's user data dir + resmon-mcp/scans", () => {
    expect(defaultScanDataDir({ RESMON_MCP_SCAN_DATA: "/x/y" }, "linux", "/home/u")).toBe("/x/y");
    expect(defaultScanDataDir({}, "linux", "/home/u")).toBe("/home/u/.local/share/resmon-mcp/scans");
    expect(defaultScanDataDir({ XDG_DATA_HOME: "/data" }, "linux", "/home/u")).toBe("/data/resmon-mcp/scans");
    expect(defaultScanDataDir({ XDG_DATA_HOME: "rel" }, "linux", "/home/u")).toBe(
      "/home/u/.local/share/resmon-mcp/scans",
    );
    expect(defaultScanDataDir({}, "darwin", "/Users/u")).toBe(
      "/Users/u/Library/Application Support/resmon-mcp/scans",
    );
    expect(
      defaultScanDataDir({ LOCALAPPDATA: "C:\\Users\\u\\AppData\\Local" }, "win32", "C:\\Users\\u"),
    ).toBe("C:\\Users\\u\\AppData\\Local\\resmon-mcp\\scans");
  });
});

describe("atomic writes", () => {
  it("write whole files, 0600, in 0700 dirs, leaving no temp file", () => {
    const d = join(dir, "a", "b");
    ensureDir(d);
    expect(statSync(d).mode & 0o777).toBe(0o700);
    const f = join(d, "scan.json");
    writeAtomic(f, "one");
    writeAtomic(f, "two");
    expect(readFileSync(f, "utf8")).toBe("two");
    expect(statSync(f).mode & 0o777).toBe(0o600);
    expect(readdirSync(d)).toEqual(["scan.json"]);
  });
});

describe("the per-scan lock", () => {
  it("is exclusive: a live holder gives scan_in_progress with who holds it", () => {
    const path = join(dir, "lock");
    const held = acquireLock(path, "scan_start", new Date());
    expect(statSync(path).mode & 0o777).toBe(0o600);
    try {
      acquireLock(path, "scan_continue", new Date());
      throw new Error("acquired twice");
    } catch (e) {
      expect(e).toBeInstanceOf(ScanError);
      expect((e as ScanError).detail).toMatchObject({
        conflict: "scan_in_progress",
        holder: { pid: process.pid, tool: "scan_start" },
      });
    }
    held.release();
    acquireLock(path, "scan_continue", new Date()).release();
  });

  it("clears a dead holder's lock", async () => {
    const path = join(dir, "lock");
    const pid = await deadPid();
    writeFileSync(
      path,
      JSON.stringify({
        pid,
        tool: "scan_start",
        acquired_at: "2026-01-01T00:00:00Z",
        host: hostname(),
        nonce: "n",
      }),
    );
    const held = acquireLock(path, "scan_continue", new Date());
    expect(held.cleared).toMatchObject({ pid, tool: "scan_start" });
    held.release();
  });

  it("clears a lock far older than any call can hold one (its pid was reused)", () => {
    const path = join(dir, "lock");
    const old = new Date(Date.now() - 3_600_000).toISOString();
    writeFileSync(
      path,
      JSON.stringify({
        pid: process.pid,
        tool: "scan_verify",
        acquired_at: old,
        host: hostname(),
        nonce: "n",
      }),
    );
    const held = acquireLock(path, "scan_continue", new Date());
    expect(held.cleared).toMatchObject({ tool: "scan_verify", acquired_at: old });
    held.release();
  });

  it("release removes only its own lock", () => {
    const path = join(dir, "lock");
    const held = acquireLock(path, "scan_start", new Date());
    writeFileSync(
      path,
      JSON.stringify({ pid: process.pid, tool: "other", acquired_at: "", host: hostname(), nonce: "theirs" }),
    );
    held.release();
    expect(JSON.parse(readFileSync(path, "utf8")).nonce).toBe("theirs");
  });
});
