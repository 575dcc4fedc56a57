/**
 * Every figure the READMEs and docs quote, computed from what it describes: the contract's table,
 * the tools/list a harness receives, the stand-in's seeds, the server's packed tarball.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import {
  CONTRACT_VERSION,
  READ_TOOLS,
  ROUTES,
  TOOLS,
  type ToolsListEntry,
  toolsListEntries,
  WRITE_TOOLS,
} from "@resmon/mcp-contract";
import { hostInfo, variablesTable } from "@resmon/mcp-server";
import { type SeedName, seedSummary } from "@resmon/testkit";
import { fmt, type RecordedRun, recordedRunPath } from "../bench/report.js";
import { type QualityRun, qualityTable } from "../bench/scan-quality.js";
import { sizeOf, TOKENIZER } from "../bench/tokenizer.js";
import { REPO_ROOT, SERVER_DIR } from "../pack-snippets.js";
import { formatTable } from "../reliability/report.js";
import { type RecordedReliabilityRun, recordedReliabilityPath } from "../reliability/results.js";

export interface Figure {
  value: string;
  /** What it is and where it comes from, for `pnpm figures`. */
  what: string;
}

export type Figures = Record<string, Figure>;

const thousands = (n: number) => n.toLocaleString("en-US");

/** The tool names of a contract version, from its committed baseline (contract/baseline/<v>.json). */
function toolsOf(version: string): Set<string> {
  const baseline = JSON.parse(
    readFileSync(join(REPO_ROOT, "contract", "baseline", `${version}.json`), "utf8"),
  );
  return new Set(Object.keys((baseline as { tools: Record<string, unknown> }).tools));
}

/**
 * tools/list as a harness receives it, and the part a model reads of it, in bytes and cl100k_base
 * tokens: for every tool of the table, and for 1.0's tools alone (the docs compare with 1.0).
 */
function surface(): Figures {
  const v1 = toolsOf("1.0");
  const scopes: [string, string, (e: ToolsListEntry) => boolean][] = [
    ["tools_list", "every tool", () => true],
    ["tools_list_1_0", "1.0's tools", (e) => v1.has(e.name)],
  ];
  const lists: [string, string, unknown][] = [];
  for (const [id, scope, keep] of scopes) {
    const entries = toolsListEntries().filter(keep);
    lists.push(
      [id, `tools/list, ${scope}, with output schemas`, { tools: entries }],
      [
        `${id}.model_read`,
        `what a model reads of tools/list, ${scope}: each name, description and inputSchema`,
        entries.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
      ],
      [
        `${id}.no_output`,
        `tools/list, ${scope}, without output schemas`,
        { tools: toolsListEntries({ outputSchemas: false }).filter(keep) },
      ],
      [
        `${id}.read_only`,
        `tools/list of a read-only session, ${scope}`,
        { tools: toolsListEntries({ readOnly: true }).filter(keep) },
      ],
    );
  }
  const figures: Figures = {
    "server.description": {
      value: hostInfo(false).info.description,
      what: "serverInfo.description, as initialize and server/discover answer it",
    },
    "tools.count": { value: String(TOOLS.length), what: "tools in the contract's table" },
    "tools.reads": { value: String(READ_TOOLS.length), what: "read tools" },
    "tools.writes": { value: String(WRITE_TOOLS.length), what: "write tools (requires_confirmation)" },
    "routes.count": { value: String(ROUTES.length), what: "method+path pairs of resmon's API the tools use" },
  };
  const bytes: Record<string, number> = {};
  for (const [id, what, value] of lists) {
    const size = sizeOf(value);
    bytes[id] = size.bytes;
    figures[`${id}.bytes`] = { value: thousands(size.bytes), what: `${what}: compact JSON bytes` };
    figures[`${id}.tokens`] = { value: thousands(size.tokens), what: `${what}: ${TOKENIZER} tokens` };
  }
  figures["tools_list.since_1_0.bytes"] = {
    value: thousands((bytes.tools_list ?? 0) - (bytes.tools_list_1_0 ?? 0)),
    what: "bytes the tools added since 1.0 add to tools/list (with output schemas)",
  };
  return figures;
}

function seeds(): Figures {
  const figures: Figures = {};
  for (const seed of ["demo", "small"] as SeedName[]) {
    for (const [field, n] of Object.entries(seedSummary(seed))) {
      figures[`seed.${seed}.${field}`] = {
        value: String(n),
        what: `${field} in the stand-in's ${seed} seed`,
      };
    }
  }
  return figures;
}

/** The server's tarball as `pnpm pack` writes it (after `pnpm build`). */
async function tarball(): Promise<Figures> {
  const dest = mkdtempSync(join(tmpdir(), "resmon-figures-"));
  try {
    await promisify(execFile)("pnpm", ["pack", "--pack-destination", dest], { cwd: SERVER_DIR });
    const file = readdirSync(dest).find((f) => f.endsWith(".tgz"));
    if (!file) throw new Error(`pnpm pack wrote no tarball into ${dest}`);
    const bytes = statSync(join(dest, file)).size;
    const version = /-(\d+\.\d+\.\d+(?:-[\w.]+)?)\.tgz$/.exec(file)?.[1] ?? "?";
    return {
      "server.tarball.bytes": { value: thousands(bytes), what: `${file}, bytes` },
      "server.tarball.kb": {
        // To the nearest 50: at 404,976 bytes the nearest 10 flipped between 400 and 410 from one
        // build to another (a few bytes of gzip), and `pnpm check` with it.
        value: String(Math.round(bytes / 50_000) * 50),
        what: `${file}, kB to the nearest 50`,
      },
      "server.version": { value: version, what: "@resmon/mcp-server's version" },
    };
  } finally {
    rmSync(dest, { recursive: true, force: true });
  }
}

/** Timings come from the runs `pnpm bench` recorded (tools/bench/results/*.json), never measured here. */
/**
 * The short run's rows the README's performance paragraph quotes, with the words that name each in
 * its verdict: the paragraph says which met their goal in that run and which missed (issue 43: it
 * quoted figures the results file marks missed, as if they had met).
 */
export const README_QUOTED_SHORT: Record<string, string> = {
  "cold-start-to-tools-list-2025-era-initialize-built-server-median": "the 2025-era cold start",
  "cold-start-to-tools-list-2026-07-28-era-server-discover-built-server-median":
    "the 2026-07-28-era cold start",
  "per-call-overhead-health-small-answer-calls-median": "health's median",
  "per-call-overhead-health-small-answer-p99": "health's p99",
  "per-call-overhead-search-corpus-limit-large-answer-calls-median": "the page's median",
  "tools-list-tools-bytes-tokens-vs-budget": "tools/list",
  "largest-paginated-answer-at-limit-find-similar": "the largest page",
};

/** "met: …; missed: … (goal …)" over the quoted rows of a run that have a goal. */
export function goalVerdict(rows: RecordedRun["rows"], quoted: Record<string, string>): string {
  const met: string[] = [];
  const missed: string[] = [];
  for (const r of rows) {
    const name = quoted[slug(r.figure)];
    if (name === undefined || r.pass === null || r.pass === undefined) continue;
    if (r.pass) met.push(name);
    else missed.push(`${name} (goal ${r.goal})`);
  }
  return [met.length ? `met: ${met.join(", ")}` : "", missed.length ? `missed: ${missed.join(", ")}` : ""]
    .filter(Boolean)
    .join("; ");
}

function recordedBench(): Figures {
  const figures: Figures = {};
  for (const short of [true, false]) {
    const path = recordedRunPath(REPO_ROOT, short);
    if (!existsSync(path)) continue;
    const run = JSON.parse(readFileSync(path, "utf8")) as RecordedRun;
    const mode = short ? "short" : "full";
    const source = `pnpm bench${short ? " --short" : ""} of ${run.date}`;
    figures[`bench.${mode}.date`] = { value: `${run.date.slice(0, 16).replace("T", " ")} UTC`, what: source };
    for (const r of run.rows) {
      const id = `bench.${mode}.${slug(r.figure)}`;
      // A count (calls, requests) reads as one: "15", not the table's "15.0".
      const value =
        r.unit === "" && r.value !== null && Number.isInteger(r.value)
          ? thousands(r.value)
          : fmt(r.value, r.unit);
      figures[id] = { value, what: `${r.figure} (${source})` };
      if (r.floor !== null) figures[`${id}.floor`] = { value: fmt(r.floor, r.unit), what: "its floor" };
      if (r.ratio !== null) figures[`${id}.ratio`] = { value: `${fmt(r.ratio)}×`, what: "value / floor" };
    }
    if (short)
      figures["bench.short.readme-goals"] = {
        value: goalVerdict(run.rows, README_QUOTED_SHORT),
        what: "which of the README's quoted figures met their goal in that run, which missed",
      };
  }
  return figures;
}

/**
 * The last full `pnpm reliability` run (tools/reliability/results/full.json), rendered as the README
 * shows it: when and where, the table, the figures the tests noted and the first line of each failure.
 */
function recordedReliability(): Figures {
  const path = recordedReliabilityPath(REPO_ROOT);
  if (!existsSync(path)) return {};
  const run = JSON.parse(readFileSync(path, "utf8")) as RecordedReliabilityRun;
  const source = `pnpm reliability of ${run.date}`;
  const failed = run.rows.reduce((n, r) => n + r.failed, 0);
  const lines = [
    `${run.date.slice(0, 16).replace("T", " ")} UTC, commit ${run.commit ?? "unknown"}, \`${run.bin}\`, scale ${run.scale}, seed ${run.seed}, ${run.seconds} s (the build not included); ${run.machine}; ${failed === 0 ? "all passed" : `${failed} failed`}.`,
    "",
    formatTable(run.rows),
  ];
  const notes = run.rows.flatMap((r) => [
    ...r.notes.map((n) => `- ${r.group}: ${n}`),
    ...r.failures.map((f) => `- FAILED, ${r.group}: ${f}`),
  ]);
  if (notes.length > 0) lines.push("", ...notes);
  return {
    "reliability.full.run": {
      value: `${lines.join("\n")}\n`,
      what: `the run, its table and notes (${source})`,
    },
    "reliability.full.failed": { value: String(failed), what: `cases failed (${source})` },
  };
}

/**
 * A row's figure as an id, without the run's sizes (call, byte and tool counts, page limits), which
 * differ between runs and as the table grows: "per-call overhead, health (small answer), 1000 calls, median" →
 * per-call-overhead-health-small-answer-calls-median.
 */
export function slug(figure: string): string {
  return figure
    .toLowerCase()
    .replace(/\d[\d,]* (calls|bytes|tools)/g, "$1")
    .replace(/limit \d+/g, "limit")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

/**
 * The contract's version (packages/contract/src/version.ts) and the baseline the version rules
 * compare it with: the newest committed one (tools/test/versioning.test.ts). The docs that name the
 * current version or the baseline quote these, so a bump rewrites them (issue 32: the README said
 * 1.1, the contract's README 1.0, while the code said 1.3).
 */
function contractVersion(): Figures {
  const versions = readdirSync(join(REPO_ROOT, "contract", "baseline"))
    .filter((f) => /^\d+\.\d+\.json$/.test(f))
    .map((f) => f.replace(/\.json$/, ""))
    .sort((a, b) => {
      const [am = 0, an = 0] = a.split(".").map(Number);
      const [bm = 0, bn = 0] = b.split(".").map(Number);
      return am - bm || an - bn;
    });
  return {
    "contract.version": {
      value: CONTRACT_VERSION,
      what: "CONTRACT_VERSION (packages/contract/src/version.ts)",
    },
    "contract.baseline": {
      value: `contract/baseline/${versions.at(-1) ?? CONTRACT_VERSION}.json`,
      what: "the newest committed baseline, the one versioning.test.ts holds the contract to",
    },
  };
}

/** The server's variables, as its configuration module declares them (packages/mcp-server/src/config.ts). */
function configuration(): Figures {
  return {
    "config.variables": {
      value: `${variablesTable()}\n`,
      what: "the RESMON_* variables table (packages/mcp-server/src/config.ts)",
    },
  };
}

/**
 * The last recorded scan-quality run (tools/bench/results/scan-quality.json), rendered as the README
 * shows it: when, on which commit and machine, and one line per review and profile.
 */
function recordedScanQuality(): Figures {
  const path = join(REPO_ROOT, "tools", "bench", "results", "scan-quality.json");
  if (!existsSync(path)) return {};
  const run = JSON.parse(readFileSync(path, "utf8")) as {
    date: string;
    commit: string;
    machine: string;
    runs: QualityRun[];
  };
  const value = `${run.date.slice(0, 16).replace("T", " ")} UTC, commit ${run.commit}; ${run.machine}.\n\n${qualityTable(run.runs)}\n`;
  return {
    "bench.scan-quality.table": { value, what: `the scan-quality run of ${run.date}, as a table` },
  };
}

export async function computeFigures(): Promise<Figures> {
  return {
    ...surface(),
    ...contractVersion(),
    ...seeds(),
    ...configuration(),
    ...recordedBench(),
    ...recordedReliability(),
    ...recordedScanQuality(),
    ...(await tarball()),
  };
}
