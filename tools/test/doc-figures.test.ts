/**
 * Docs cannot go stale: every figure a README or doc quotes (tools/list sizes in bytes and tokens,
 * the stand-in's seed table, the tarball's size, the recorded bench and reliability runs) must equal
 * what `pnpm figures` prints.
 * `pnpm figures --write` (also run by `pnpm generate`) rewrites them.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { docFiles, keepWrapping, quotes, rewrite, sameFigure } from "../src/figures/check.js";
import { type Figures, goalVerdict, README_QUOTED_SHORT, slug } from "../src/figures/compute.js";
import { REPO_ROOT, SERVER_DIR } from "../src/pack-snippets.js";

const TOOLS_DIR = join(REPO_ROOT, "tools");
const TSX = join(TOOLS_DIR, "node_modules", ".bin", "tsx");
const BUILT = existsSync(join(SERVER_DIR, "dist", "bin", "cli.js"));

/** What `pnpm figures` prints, one `id  value  what` line per figure. */
function printedFigures(): Figures {
  const run = spawnSync(TSX, ["src/figures/main.ts"], { cwd: TOOLS_DIR, encoding: "utf8", timeout: 60_000 });
  expect(run.status, run.stderr).toBe(0);
  const figures: Figures = {};
  for (const line of run.stdout.split("\n")) {
    const [id, value, what] = line.split("\t");
    if (id && value) figures[id.trim()] = { value: value.replaceAll("\\n", "\n"), what: what ?? "" };
  }
  return figures;
}

describe.skipIf(!BUILT)("figures in the docs", () => {
  let figures: Figures;
  beforeAll(() => {
    figures = printedFigures();
  }, 90_000);

  it("pnpm figures prints the surface's counts, tools/list sizes, the seeds and the tarball", () => {
    for (const id of ["tools.count", "tools.reads", "tools.writes", "routes.count", "tools_list.bytes"]) {
      expect(figures[id]?.value, id).toMatch(/^[\d,]+$/);
    }
    expect(Number(figures["tools.count"]?.value)).toBe(
      Number(figures["tools.reads"]?.value) + Number(figures["tools.writes"]?.value),
    );
    expect(figures["seed.demo.papers"]?.value).toBe("3000");
    expect(figures["server.tarball.kb"]?.value).toMatch(/^\d*[05]0$/);
  });

  it("every figure a doc quotes is the one pnpm figures prints", () => {
    const stale: string[] = [];
    let quoted = 0;
    for (const file of docFiles(REPO_ROOT)) {
      const found = quotes(file, readFileSync(join(REPO_ROOT, file), "utf8"));
      stale.push(...found.missing.map((p) => `${p.file}: ${p.message}`));
      for (const q of found.quotes) {
        quoted++;
        const value = figures[q.figure]?.value;
        if (value === undefined || !sameFigure(q.found, value))
          stale.push(`${file}:${q.line}: ${q.figure} is ${value}, the doc says ${q.found}`);
      }
    }
    expect(stale, "run `pnpm figures --write`").toEqual([]);
    expect(quoted).toBeGreaterThan(20);
  });
});

describe("the figure detector", () => {
  const figures: Figures = {
    "server.tarball.kb": { value: "420", what: "" },
    "server.version": { value: "1.0.0", what: "" },
  };

  it("finds a place's figures and rewrites only the stale ones", () => {
    const text = "adds the download of one tarball of about 380 kB (for 1.0.0, as `pnpm pack` writes it";
    const found = quotes("docs/releasing.md", text).quotes.map((q) => [q.figure, q.found]);
    expect(found).toEqual([
      ["server.tarball.kb", "380"],
      ["server.version", "1.0.0"],
    ]);
    expect(rewrite("docs/releasing.md", text, figures)).toBe(text.replace("380 kB", "420 kB"));
  });

  it("keeps a figure wrapped where the doc wrapped it", () => {
    expect(keepWrapping("2026-12-01\n08:03 UTC", "2026-12-02 09:10 UTC")).toBe("2026-12-02\n09:10 UTC");
    expect(keepWrapping("283\nms", "1,020 ms")).toBe("1,020\nms");
    expect(keepWrapping("283 ms", "1.02 s")).toBe("1.02 s");
    expect(sameFigure("2026-12-01\n08:03 UTC", "2026-12-01 08:03 UTC")).toBe(true);
  });

  it("renders a recorded run's block between its markers, and sees a re-aligned table as the same", () => {
    const run =
      "2026-12-01 09:00 UTC, seed 1.\n\n| group | cases tried |\n| ----- | ----------: |\n| load  |          12 |\n";
    const block: Figures = { "reliability.full.run": { value: run, what: "" } };
    const doc =
      "Intro.\n\n<!-- reliability-run:begin -->\nold table\n<!-- reliability-run:end -->\n\nAfter.\n";
    const written = rewrite("README.md", doc, block);
    expect(written).toBe(
      `Intro.\n\n<!-- reliability-run:begin -->\n${run}<!-- reliability-run:end -->\n\nAfter.\n`,
    );
    const found = quotes("README.md", written).quotes.find((q) => q.figure === "reliability.full.run");
    expect(found && sameFigure(found.found, run)).toBe(true);
    expect(sameFigure(found?.found.replace("| load  |", "| load |") ?? "", run)).toBe(true);
    expect(sameFigure(found?.found.replace("12", "13") ?? "", run)).toBe(false);
  });

  it("reports a place whose sentence is gone, rather than passing silently", () => {
    const reworded = quotes("docs/releasing.md", "The tarball is small.\n");
    expect(reworded.missing.map((p) => p.message)).toContainEqual(
      expect.stringContaining("no longer quotes server.tarball.kb"),
    );
  });
});

describe("the README's performance paragraph", () => {
  const row = (figure: string, pass: boolean | null, goal = "< 0.5 ms") => ({
    figure,
    value: 1,
    floor: null,
    ratio: null,
    unit: "ms",
    goal,
    pass,
  });

  it("says which quoted figures met their goal and which missed, with the goal", () => {
    const health = "per-call overhead, health (small answer), 1000 calls, median";
    const p99 = "per-call overhead, health (small answer), p99";
    expect(
      goalVerdict([row(health, false), row(p99, true, "< 2 ms"), row("other", false)], README_QUOTED_SHORT),
    ).toBe("met: health's p99; missed: health's median (goal < 0.5 ms)");
  });

  it("quotes only rows the recorded short run has, each with a verdict", () => {
    const run = JSON.parse(
      readFileSync(join(REPO_ROOT, "tools", "bench", "results", "short.json"), "utf8"),
    ) as {
      rows: { figure: string; pass: boolean | null }[];
    };
    const found = new Map(run.rows.map((r) => [slug(r.figure), r.pass]));
    for (const id of Object.keys(README_QUOTED_SHORT)) {
      expect(found.has(id), id).toBe(true);
      expect(found.get(id), `${id} has a goal`).not.toBeNull();
    }
  });
});
