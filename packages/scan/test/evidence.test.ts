/**
 * The one evidence read (evidence.ts): a finished scan's three files by name, byte for byte; every
 * other name, another scan's id, a symlink, an oversized file or an unfinished scan refused, with
 * nothing read.
 */
import { mkdirSync, readFileSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScanEngine, EVIDENCE_FILES, MAX_EVIDENCE_BYTES, type ScanEngine } from "../src/index.js";
import { type Rig, rig } from "./helpers/backend.js";
import { driveToEnd } from "./helpers/model.js";
import { startArgs } from "./helpers/plan.js";
import { refused } from "./helpers/refused.js";

let r: Rig;
let engine: ScanEngine;
let done: string;
let open: string;

beforeAll(async () => {
  r = await rig();
  engine = r.engine({ waitMs: 8000 });
  const args = startArgs({ per_query: 4 });
  const seen = await driveToEnd(engine, await engine.start(args));
  expect(seen.at(-1)?.next_action).toBe("complete");
  done = args.scan_id;
  const other = startArgs({ per_query: 4 });
  await engine.start(other);
  open = other.scan_id;
}, 60_000);
afterAll(async () => {
  await r.close();
});

describe("readEvidence", () => {
  it("serves each of a finished scan's three files byte-equal to the file on disk", async () => {
    for (const file of EVIDENCE_FILES) {
      const read = await engine.evidence({ scan_id: done, file });
      expect(read).toMatchObject({ scan_id: done, file });
      expect(Buffer.from(read.text, "utf8").equals(readFileSync(join(r.dataDir, done, file)))).toBe(true);
    }
  });

  it("lists a finished scan's files (and nothing of a scan still running), newest first", async () => {
    const listed = (await engine.listEvidence()).files;
    expect(listed.filter((l) => l.scan_id === done).map((l) => l.file)).toEqual([...EVIDENCE_FILES]);
    expect(listed.some((l) => l.scan_id === open)).toBe(false);
    for (const l of listed.filter((x) => x.scan_id === done))
      expect(l.bytes).toBe(readFileSync(join(r.dataDir, done, l.file)).length);
  });

  it("refuses a name that is not an evidence file, and a path in its place, reading nothing", async () => {
    for (const file of ["scan.json", "candidates.json", "lock", "../evidence.md", "evidence.md/", ""]) {
      const e = await refused(engine.evidence({ scan_id: done, file }));
      expect(e.code, file).toBe("invalid_argument");
      expect(e.detail.field).toBe("file");
    }
    for (const scanId of ["..", `${done}/..`, done.toUpperCase(), "not-a-uuid"]) {
      const e = await refused(engine.evidence({ scan_id: scanId, file: "evidence.md" }));
      expect(e.code, scanId).toBe("invalid_argument");
      expect(e.detail.field).toBe("scan_id");
    }
  });

  it("says an unknown scan is not found and an unfinished one has no evidence yet", async () => {
    const unknown = await refused(engine.evidence({ scan_id: crypto.randomUUID(), file: "evidence.md" }));
    expect(unknown.code).toBe("not_found");
    const unfinished = await refused(engine.evidence({ scan_id: open, file: "evidence.md" }));
    expect(unfinished.code).toBe("not_found");
    expect(unfinished.detail).toMatchObject({ reason: "not_complete", scan_id: open });
  });

  it("never follows a symlink: not a linked file, not a linked scan directory; another scan's state is not served as this one", async () => {
    const secret = join(r.dataDir, "..", "secret-evidence.txt");
    writeFileSync(secret, "SECRET-THAT-MUST-NOT-BE-READ");
    // A scan directory that is a symlink to a finished scan.
    const alias = crypto.randomUUID();
    symlinkSync(join(r.dataDir, done), join(r.dataDir, alias));
    const linkedDir = await refused(engine.evidence({ scan_id: alias, file: "evidence.md" }));
    expect(linkedDir.detail).toMatchObject({ reason: "storage", problem: "symlink" });
    expect((await engine.listEvidence()).files.some((l) => l.scan_id === alias)).toBe(false);
    // A directory holding a copy of another scan's scan.json: its scan_id is not this one.
    const copy = crypto.randomUUID();
    mkdirSync(join(r.dataDir, copy));
    writeFileSync(join(r.dataDir, copy, "scan.json"), readFileSync(join(r.dataDir, done, "scan.json")));
    writeFileSync(join(r.dataDir, copy, "evidence.md"), "# a foreign copy");
    const foreign = await refused(engine.evidence({ scan_id: copy, file: "evidence.md" }));
    expect(foreign.detail).toMatchObject({ reason: "storage", problem: "wrong_scan_id" });
    // The evidence file itself a symlink to a secret.
    const bib = join(r.dataDir, done, "evidence.bib");
    const kept = readFileSync(bib);
    rmSync(bib);
    symlinkSync(secret, bib);
    try {
      const linked = await refused(engine.evidence({ scan_id: done, file: "evidence.bib" }));
      expect(linked.detail).toMatchObject({ reason: "storage", problem: "symlink" });
      expect(JSON.stringify(linked)).not.toContain("SECRET");
      expect(
        (await engine.listEvidence()).files.some((l) => l.scan_id === done && l.file === "evidence.bib"),
      ).toBe(false);
    } finally {
      rmSync(bib);
      writeFileSync(bib, kept, { mode: 0o600 });
    }
  });

  it("refuses a file over the bound without reading it", async () => {
    const md = join(r.dataDir, done, "evidence.md");
    const kept = readFileSync(md);
    truncateSync(md, MAX_EVIDENCE_BYTES + 1);
    try {
      const e = await refused(engine.evidence({ scan_id: done, file: "evidence.md" }));
      expect(e.detail).toMatchObject({ reason: "storage", problem: "too_large" });
    } finally {
      writeFileSync(md, kept);
    }
  });

  it("lists only what a read serves: every entry reads, and no file a read refuses is listed (issue 41)", async () => {
    const made: string[] = [];
    const scanDir = (id: string) => {
      mkdirSync(join(r.dataDir, id));
      made.push(join(r.dataDir, id));
      return join(r.dataDir, id);
    };
    const doneState = readFileSync(join(r.dataDir, done, "scan.json"));
    // Another scan's scan.json with all three files; a garbage one; none at all; an unfinished scan's state.
    const foreign = scanDir(crypto.randomUUID());
    writeFileSync(join(foreign, "scan.json"), doneState);
    const garbage = scanDir(crypto.randomUUID());
    writeFileSync(join(garbage, "scan.json"), "{not json");
    const stateless = scanDir(crypto.randomUUID());
    const unfinished = join(r.dataDir, open);
    for (const dir of [foreign, garbage, stateless, unfinished])
      for (const file of EVIDENCE_FILES) writeFileSync(join(dir, file), "planted");
    // The finished scan's evidence.md over the bound: its other two files are still served.
    const md = join(r.dataDir, done, "evidence.md");
    const kept = readFileSync(md);
    truncateSync(md, MAX_EVIDENCE_BYTES + 1);
    try {
      const listed = (await engine.listEvidence()).files;
      for (const l of listed) await engine.evidence({ scan_id: l.scan_id, file: l.file });
      const ids = new Set(listed.map((l) => l.scan_id));
      for (const dir of [foreign, garbage, stateless, unfinished])
        expect(ids.has(dir.slice(-36)), dir).toBe(false);
      expect(listed.filter((l) => l.scan_id === done).map((l) => l.file)).toEqual([
        "evidence.json",
        "evidence.bib",
      ]);
    } finally {
      writeFileSync(md, kept);
      for (const dir of made) rmSync(dir, { recursive: true, force: true });
      for (const file of EVIDENCE_FILES) rmSync(join(unfinished, file), { force: true });
    }
  });

  it("pages twenty scans at a time, each from where the last ended; refused scans cost a page at most", async () => {
    const made: string[] = [];
    const state = readFileSync(join(r.dataDir, done, "scan.json"), "utf8");
    const plant = (servable: boolean) => {
      const id = crypto.randomUUID();
      const dir = join(r.dataDir, id);
      mkdirSync(dir);
      made.push(dir);
      // A copy of the finished scan under its own id, or another scan's state (refused by a read).
      writeFileSync(join(dir, "scan.json"), servable ? state.replaceAll(done, id) : state);
      for (const file of EVIDENCE_FILES) writeFileSync(join(dir, file), "x");
      return id;
    };
    try {
      const servable = Array.from({ length: 44 }, () => plant(true));
      // More refused scans than one page looks into.
      for (let i = 0; i < 70; i++) plant(false);
      const seen: string[] = [];
      let from: number | undefined = 0;
      let pages = 0;
      while (from !== undefined) {
        const page: Awaited<ReturnType<ScanEngine["listEvidence"]>> = await engine.listEvidence(from);
        const ids = [...new Set(page.files.map((l) => l.scan_id))];
        expect(ids.length).toBeLessThanOrEqual(20);
        for (const l of page.files) await engine.evidence({ scan_id: l.scan_id, file: l.file });
        seen.push(...ids);
        from = page.next;
        pages += 1;
        expect(pages).toBeLessThan(20);
      }
      // Every servable scan once (the 44 copies and the finished scan), nothing else.
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.sort()).toEqual([...servable, done].sort());
    } finally {
      for (const dir of made) rmSync(dir, { recursive: true, force: true });
    }
  });

  it("says the most bytes of one scan.json a page reads, for the server's budget (issue 41)", async () => {
    const doneState = statSync(join(r.dataDir, done, "scan.json")).size;
    expect(engine.listEvidenceStateBytes()).toBe(doneState);
    // A bigger scan.json among the scans a page looks into raises it; one past the ceiling is never read.
    const big = crypto.randomUUID();
    mkdirSync(join(r.dataDir, big));
    writeFileSync(join(r.dataDir, big, "evidence.md"), "x");
    writeFileSync(join(r.dataDir, big, "scan.json"), "");
    try {
      truncateSync(join(r.dataDir, big, "scan.json"), doneState + 1000);
      expect(engine.listEvidenceStateBytes()).toBe(doneState + 1000);
      truncateSync(join(r.dataDir, big, "scan.json"), 33 * 1024 * 1024);
      expect(engine.listEvidenceStateBytes()).toBe(doneState);
    } finally {
      rmSync(join(r.dataDir, big), { recursive: true, force: true });
    }
  });

  it("reads through the scrubber", async () => {
    const text = readFileSync(join(r.dataDir, done, "evidence.md"), "utf8");
    const word = text.match(/[A-Za-z]{6,}/)?.[0] ?? "Verification";
    const scrubbing = createScanEngine({
      dataDir: r.dataDir,
      scrub: (t) => t.replaceAll(word, "<redacted>"),
    });
    const read = await scrubbing.evidence({ scan_id: done, file: "evidence.md" });
    expect(read.text).not.toContain(word);
    expect(read.text).toContain("<redacted>");
  });
});

describe("stateBytes", () => {
  it("is the size of the scan's scan.json and candidates.json, 0 for a scan not there, a symlink not followed", () => {
    const sizes = ["scan.json", "candidates.json"].map((f) => statSync(join(r.dataDir, done, f)).size);
    expect(engine.stateBytes(done)).toBe((sizes[0] ?? 0) + (sizes[1] ?? 0));
    expect(engine.stateBytes(crypto.randomUUID())).toBe(0);
    const records = join(r.dataDir, done, "candidates.json");
    const kept = readFileSync(records);
    rmSync(records);
    symlinkSync(join(r.dataDir, done, "scan.json"), records);
    try {
      expect(engine.stateBytes(done)).toBe(sizes[0]);
    } finally {
      rmSync(records);
      writeFileSync(records, kept, { mode: 0o600 });
    }
  });
});
