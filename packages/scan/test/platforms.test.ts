/**
 * The scan's file steps where Windows differs (issue 45), held here by injecting the platform: a
 * target another program holds open cannot be replaced (EPERM/EACCES/EBUSY), a rooted path without a
 * drive is not one place, and a lock's holder is judged alive by the same error codes.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ToolError } from "@resmon/mcp-contract";
import { afterEach, describe, expect, it } from "vitest";
import { isFullPath } from "../src/data-dir.js";
import { REPLACE_RETRY_MS, replaceFile, StorageProblem, writeAtomic } from "../src/fsio.js";
import { alive } from "../src/lock.js";
import { ScanDir } from "../src/store.js";

const errno = (code: string) => Object.assign(new Error(code), { code });

function renamer(failures: string[]) {
  const calls: string[] = [];
  return {
    calls,
    rename: (from: string, to: string) => {
      calls.push(`${from}->${to}`);
      const code = failures.shift();
      if (code) throw errno(code);
    },
  };
}

describe("replacing a file another program holds open (Windows)", () => {
  it("waits out a short hold: EPERM, then EBUSY, then the rename goes through", () => {
    const r = renamer(["EPERM", "EBUSY"]);
    const slept: number[] = [];
    replaceFile("a.tmp", "a", { platform: "win32", rename: r.rename, sleep: (ms) => slept.push(ms) });
    expect(r.calls).toHaveLength(3);
    expect(slept).toEqual(REPLACE_RETRY_MS.slice(0, 2));
  });

  it("refuses a hold that outlasts the bounded waits, saying what holds it; never waits longer", () => {
    const r = renamer(Array(20).fill("EACCES"));
    const slept: number[] = [];
    let thrown: unknown;
    try {
      replaceFile("a.tmp", "C:\\scans\\x\\evidence.md", {
        platform: "win32",
        rename: r.rename,
        sleep: (ms) => slept.push(ms),
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(StorageProblem);
    expect((thrown as StorageProblem).problem).toBe("held_open");
    expect((thrown as StorageProblem).message).toMatch(/another program has it open.*close it/);
    expect(r.calls).toHaveLength(REPLACE_RETRY_MS.length + 1);
    // 1.27 s in all, as fsio.ts and docs/platforms.md say.
    expect(slept.reduce((a, b) => a + b, 0)).toBe(1_270);
  });

  it("a full disk is not waited on, on Windows either; elsewhere EPERM is said at once", () => {
    const full = renamer(["ENOSPC"]);
    expect(() =>
      replaceFile("a.tmp", "a", { platform: "win32", rename: full.rename, sleep: () => {} }),
    ).toThrow("ENOSPC");
    expect(full.calls).toHaveLength(1);
    const posix = renamer(["EPERM"]);
    expect(() =>
      replaceFile("a.tmp", "a", { platform: "linux", rename: posix.rename, sleep: () => {} }),
    ).toThrow("EPERM");
    expect(posix.calls).toHaveLength(1);
  });

  it("a scan's refusal names the hold as a storage problem with the file", () => {
    const dir = new ScanDir(join(tmpdir(), "scans"), "00000000-0000-4000-8000-000000000000");
    const refusal = dir.refusal(
      new StorageProblem("held_open", dir.file("evidence.md"), "another program has it open; close it"),
      dir.file("evidence.md"),
      "write",
    );
    expect(refusal).toBeInstanceOf(ToolError);
    expect((refusal as ToolError).detail).toMatchObject({ reason: "storage", problem: "held_open" });
  });

  let scratch: string | undefined;
  afterEach(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
    scratch = undefined;
  });

  it("writeAtomic on this platform still replaces the file whole", () => {
    scratch = mkdtempSync(join(tmpdir(), "resmon-scan-replace-"));
    const path = join(scratch, "scan.json");
    writeAtomic(path, "one");
    writeAtomic(path, "two");
    expect(readFileSync(path, "utf8")).toBe("two");
  });
});

describe("a scans directory that names one place", () => {
  it("on Windows takes a drive or a UNC share, not a rooted or drive-relative path", () => {
    for (const ok of ["C:\\Users\\a\\scans", "d:/scans", "\\\\server\\share\\scans", "//server/share"])
      expect(isFullPath(ok, "win32"), ok).toBe(true);
    for (const no of ["\\scans", "/scans", "C:scans", "scans", ".\\scans", "\\\\", ""])
      expect(isFullPath(no, "win32"), no).toBe(false);
  });

  it("elsewhere takes what starts at /", () => {
    expect(isFullPath("/home/a/scans", "linux")).toBe(true);
    expect(isFullPath("/Users/a/scans", "darwin")).toBe(true);
    expect(isFullPath("scans", "darwin")).toBe(false);
  });
});

describe("a lock's holder judged alive", () => {
  it("by signal 0's answer, as libuv gives it on every platform: ESRCH is gone, EPERM is someone else's", () => {
    expect(alive(1234, () => undefined)).toBe(true);
    expect(
      alive(1234, () => {
        throw errno("ESRCH");
      }),
    ).toBe(false);
    expect(
      alive(1234, () => {
        throw errno("EPERM");
      }),
    ).toBe(true);
    expect(alive(process.pid)).toBe(true);
  });
});
