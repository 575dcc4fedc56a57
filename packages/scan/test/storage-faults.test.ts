/**
 * The scan's files under faults: a full disk, a read-only or foreign scans directory, corrupt,
 * oversized, foreign or symlinked files, a directory named lock. Each is a named storage refusal
 * (detail.reason "storage", the path relative to the scans directory), with what was on disk left
 * as it was and nothing sent to resmon after it.
 */
import { execFileSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ScanEnvelope } from "@resmon/mcp-contract";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeAtomic } from "../src/fsio.js";
import { createScanEngine, type ScanBackend } from "../src/index.js";
import { type Rig, rig } from "./helpers/backend.js";
import { driveToEnd, scoreBatch } from "./helpers/model.js";
import { startArgs } from "./helpers/plan.js";
import { refused } from "./helpers/refused.js";

/** A tmpfs of `size` at a fresh mount point, or a reason why none could be mounted. */
function mountTmpfs(size: string, options = ""): { dir: string; unmount: () => void } | string {
  const dir = mkdtempSync(join(tmpdir(), "scan-tmpfs-"));
  try {
    execFileSync(
      "mount",
      ["-t", "tmpfs", "-o", `size=${size}${options ? `,${options}` : ""}`, "tmpfs", dir],
      {
        stdio: "pipe",
      },
    );
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    return `mount -t tmpfs is not permitted here (${String((e as Error).message).split("\n")[0]})`;
  }
  return {
    dir,
    unmount: () => {
      execFileSync("umount", [dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Fill the file system holding `dir` until fewer than `leave` bytes are free. */
function fill(dir: string, leave: number): void {
  const path = join(dir, "filler");
  writeFileSync(path, "");
  for (;;) {
    const free = Number(execFileSync("df", ["--output=avail", "-B1", dir]).toString().split("\n")[1]);
    if (free < leave) return;
    try {
      writeFileSync(path, Buffer.alloc(Math.max(4096, Math.floor((free - leave) / 2)), 120), { flag: "a" });
    } catch {
      return;
    }
  }
}

const mounted = mountTmpfs("1m");
const noMount = typeof mounted === "string" ? mounted : null;
if (typeof mounted !== "string") mounted.unmount();

describe.skipIf(noMount !== null)(`a full disk (${noMount ?? "tmpfs"})`, () => {
  let r: Rig;
  let fs: { dir: string; unmount: () => void };
  beforeEach(async () => {
    r = await rig();
    fs = mountTmpfs("2m") as typeof fs;
  });
  afterEach(async () => {
    fs.unmount();
    await r.close();
  });

  it("writeAtomic on a full tmpfs: the old file stays whole, no part of the new one anywhere", () => {
    const path = join(fs.dir, "scan.json");
    writeAtomic(path, "old");
    fill(fs.dir, 8192);
    // Before: writeSync's short count was ignored, 8,192 of these bytes renamed over the old file.
    expect(() => writeAtomic(path, "x".repeat(64 * 1024))).toThrow();
    expect(readFileSync(path, "utf8")).toBe("old");
    expect(readdirSync(fs.dir).sort()).toEqual(["filler", "scan.json"]);
  });

  it("an accepted batch that cannot be saved is refused as storage; scan.json untouched, nothing sent", async () => {
    const engine = r.engine({ dataDir: join(fs.dir, "scans") });
    const args = startArgs();
    const first = await engine.start(args);
    expect(first.next_action).toBe("screen_candidates");
    const scanJson = join(fs.dir, "scans", args.scan_id, "scan.json");
    const before = readFileSync(scanJson, "utf8");
    // Room for the lock, not for the next scan.json.
    expect(before.length).toBeGreaterThan(12 * 1024);
    fill(fs.dir, 8 * 1024);
    const sent = r.kit.requests.length;
    const items = (first.payload.batch as { items: { doc_id: number }[] }).items;
    const e = await refused(engine.continue({ scan_id: args.scan_id, screen_scores: scoreBatch(items) }));
    expect(e.code).toBe("internal_error");
    expect(e.detail).toMatchObject({ reason: "storage" });
    expect(["ENOSPC", "short_write"]).toContain(e.detail.problem);
    expect(String(e.detail.path)).toMatch(new RegExp(`^${args.scan_id}/(scan|candidates)\\.json$`));
    expect(e.message).toContain("nothing was sent to resmon");
    expect(readFileSync(scanJson, "utf8")).toBe(before);
    expect(r.kit.requests.length).toBe(sent);
    // Space again: the same call goes on from the untouched state.
    rmSync(join(fs.dir, "filler"));
    const next = await engine.continue({ scan_id: args.scan_id, screen_scores: scoreBatch(items) });
    expect(next.status).toBe("ok");
  });

  it("a new scan on a full disk: refused before any sweep is started", async () => {
    const engine = r.engine({ dataDir: join(fs.dir, "scans") });
    mkdirSync(join(fs.dir, "scans"));
    fill(fs.dir, 1024);
    const e = await refused(engine.start(startArgs()));
    expect(e.detail).toMatchObject({ reason: "storage" });
    expect(r.sweepPosts()).toBe(0);
  });

  it("a save that fails after this call's sweeps were sent does not say nothing was sent", async () => {
    const engine = r.engine({ dataDir: join(fs.dir, "scans") });
    // The disk fills once the first sweep has been sent (issue 34 point 7: the refusal said "nothing
    // was sent to resmon" after 6 sweep POSTs in the same call).
    let filled = false;
    const backend: ScanBackend = {
      call: async (send, options) => {
        const data = await r.backend.call(send, options);
        if (!filled && r.sweepPosts() > 0) {
          filled = true;
          fill(fs.dir, 1024);
        }
        return data;
      },
    };
    const e = await refused(engine.start(startArgs(), backend));
    expect(filled).toBe(true);
    expect(r.sweepPosts()).toBeGreaterThan(0);
    expect(e.detail).toMatchObject({ reason: "storage" });
    expect(e.message).not.toContain("nothing was sent to resmon");
    expect(e.message).toMatch(/this call had already made \d+ requests? of resmon/);
  });

  it("a read-only scans directory is refused by name (EROFS)", async () => {
    const ro = mountTmpfs("1m", "ro") as typeof fs;
    try {
      const e = await refused(r.engine({ dataDir: join(ro.dir, "scans") }).start(startArgs()));
      expect(e.detail).toMatchObject({ reason: "storage", problem: "EROFS" });
      expect(r.sweepPosts()).toBe(0);
    } finally {
      ro.unmount();
    }
  });
});

describe("the scans directory and each scan's files", () => {
  let r: Rig;
  beforeEach(async () => {
    r = await rig();
  });
  afterEach(async () => {
    await r.close();
  });

  async function screening(): Promise<{ id: string; dir: string; env: ScanEnvelope }> {
    const args = startArgs();
    const env = await r.engine().start(args);
    return { id: args.scan_id, dir: join(r.dataDir, args.scan_id), env };
  }

  it("a file where the scans directory should be: a named refusal, not internal_error with nothing known", async () => {
    writeFileSync(r.dataDir, "not a directory");
    const e = await refused(r.engine().start(startArgs()));
    expect(e.detail).toMatchObject({ reason: "storage", problem: "not_a_directory" });
    const read = await refused(r.engine().result({ scan_id: startArgs().scan_id }));
    expect(read.detail).toMatchObject({ reason: "storage", problem: "ENOTDIR" });
  });

  it("a relative scans directory is refused: scans would land wherever the harness runs", async () => {
    const e = await refused(r.engine({ dataDir: "relative/scans" }).start(startArgs()));
    expect(e.detail).toMatchObject({ reason: "storage", problem: "relative_root" });
    expect(r.sweepPosts()).toBe(0);
  });

  it("a corrupt scan.json is refused by name and left as it is", async () => {
    const { id, dir } = await screening();
    writeFileSync(join(dir, "scan.json"), '{"version": 1, "scan_id": ');
    for (const call of [r.engine().result({ scan_id: id }), r.engine().continue({ scan_id: id })]) {
      const e = await refused(call);
      expect(e.detail).toMatchObject({ reason: "storage", problem: "corrupt", path: `${id}/scan.json` });
    }
    expect(readFileSync(join(dir, "scan.json"), "utf8")).toBe('{"version": 1, "scan_id": ');
  });

  it("an oversized scan.json is refused without being read (a 300 MB one was read whole)", async () => {
    const { id, dir } = await screening();
    truncateSync(join(dir, "scan.json"), 300 * 1024 * 1024);
    const t0 = Date.now();
    const e = await refused(r.engine().result({ scan_id: id }));
    expect(e.detail).toMatchObject({ reason: "storage", problem: "too_large" });
    // too_large is the size check before a read; the bound is a wide hang guard.
    expect(Date.now() - t0).toBeLessThan(10_000);
  });

  it("a wrong-typed phase is not blamed on resmon: the phase is derived, the stored one never read", async () => {
    const { id, dir, env } = await screening();
    const state = JSON.parse(readFileSync(join(dir, "scan.json"), "utf8"));
    writeFileSync(join(dir, "scan.json"), JSON.stringify({ ...state, phase: { not: "a phase" } }));
    const read = await r.engine().result({ scan_id: id });
    expect(read.phase).toBe(env.phase);
    expect(read.next_action).toBe("screen_candidates");
  });

  it("another scan's scan.json, copied or linked in, is not served or resumed as this one", async () => {
    const a = await screening();
    const b = await screening();
    writeFileSync(join(b.dir, "scan.json"), readFileSync(join(a.dir, "scan.json")));
    const copied = await refused(r.engine().result({ scan_id: b.id }));
    expect(copied.detail).toMatchObject({ reason: "storage", problem: "wrong_scan_id" });
    rmSync(join(b.dir, "scan.json"));
    symlinkSync(join(a.dir, "scan.json"), join(b.dir, "scan.json"));
    const linked = await refused(r.engine().continue({ scan_id: b.id }));
    expect(linked.detail).toMatchObject({ reason: "storage", problem: "symlink" });
  });

  it("a scan directory that is a symlink out of the scans directory is not followed", async () => {
    const a = await screening();
    const other = startArgs().scan_id;
    symlinkSync(a.dir, join(r.dataDir, other));
    const e = await refused(r.engine().result({ scan_id: other }));
    expect(e.detail).toMatchObject({ reason: "storage", problem: "symlink" });
  });

  it("a directory named lock is a named refusal at once, not scan_in_progress forever", async () => {
    const { id, dir } = await screening();
    mkdirSync(join(dir, "lock"));
    const t0 = Date.now();
    const e = await refused(r.engine().continue({ scan_id: id }));
    expect(e.detail).toMatchObject({ reason: "storage", problem: "not_a_file", path: `${id}/lock` });
    // not_a_file is the named refusal (waiting would end in scan_in_progress); a wide hang guard.
    expect(Date.now() - t0).toBeLessThan(10_000);
  });

  it("scan_result reads only its own evidence.md: stored paths and symlinks lead nowhere else", async () => {
    const engine = r.engine({ waitMs: 8000 });
    const args = startArgs({ per_query: 4 });
    const seen = await driveToEnd(engine, await engine.start(args));
    expect(seen.at(-1)?.next_action).toBe("complete");
    const dir = join(r.dataDir, args.scan_id);
    const secret = join(r.dataDir, "..", "secret.txt");
    writeFileSync(secret, "TOKEN-THAT-MUST-NOT-BE-READ");
    // An absolute path stored in scan.json (as older versions wrote them) is not followed.
    const state = JSON.parse(readFileSync(join(dir, "scan.json"), "utf8"));
    writeFileSync(
      join(dir, "scan.json"),
      JSON.stringify({ ...state, files: { ...state.files, md: secret } }),
    );
    const own = await engine.result({ scan_id: args.scan_id, include_markdown: true });
    expect(String(own.payload.markdown)).toContain("#");
    expect(JSON.stringify(own)).not.toContain("TOKEN-THAT-MUST");
    expect((own.payload.files as { md: string }).md).toBe(join(dir, "evidence.md"));
    // evidence.md replaced by a symlink to the secret: refused, never read.
    rmSync(join(dir, "evidence.md"));
    symlinkSync(secret, join(dir, "evidence.md"));
    const e = await refused(engine.result({ scan_id: args.scan_id, include_markdown: true }));
    expect(e.detail).toMatchObject({ reason: "storage", problem: "symlink" });
    // /dev/zero in its place: refused at once, not read until memory runs out (Windows has no /dev/zero).
    if (process.platform !== "win32") {
      rmSync(join(dir, "evidence.md"));
      symlinkSync("/dev/zero", join(dir, "evidence.md"));
      await refused(engine.result({ scan_id: args.scan_id, include_markdown: true }));
    }
  });

  it("everything written to disk goes through the scrubber", async () => {
    // The seeded titles all hold a word; the scrubber given to the engine redacts it.
    const word = "graph";
    const engine = createScanEngine({
      backend: r.backend,
      dataDir: r.dataDir,
      waitMs: 8000,
      pollMs: 20,
      scrub: (t) => t.replaceAll(word, "<redacted>"),
    });
    const args = startArgs({ per_query: 4 });
    const seen = await driveToEnd(engine, await engine.start(args));
    expect(seen.at(-1)?.next_action).toBe("complete");
    const dir = join(r.dataDir, args.scan_id);
    const files = readdirSync(dir);
    expect(files).toEqual(
      expect.arrayContaining([
        "scan.json",
        "candidates.json",
        "evidence.json",
        "evidence.md",
        "evidence.bib",
      ]),
    );
    const all = files.map((f) => readFileSync(join(dir, f), "utf8")).join("\n");
    expect(all).toContain("<redacted>");
    expect(all).not.toContain(word);
  });
});
