/**
 * `pnpm bench [--short] [--record] [--strict] [--cold-start] [--compare <label>=<bin>]…`: cold start, per-call overhead, throughput,
 * memory and tokens of the built server, each beside its floor measured in the same run. Prints a
 * table and writes bench-results/bench.json at the repository root (and, with `--record`, the
 * committed tools/bench/results/short.json or full.json the docs quote). `--compare` also measures
 * another build of the bin (say, a copy of an older dist/resmon-mcp.cjs, beside its package.json)
 * in the same run, for before/after tables. Memory and cold start also measure the floor server
 * (the same SDK with the contract's number of trivial tools, floor-server.mjs, bundled by the
 * server's own build.mjs), the floor every cold-start goal is held to. A figure that misses, or cannot be true,
 * is reported as a miss in the table and its summary; the run is never failed for it (`--strict`
 * exits 1 on a goal miss).
 * See tools/bench/RESULTS.md for recorded runs.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { cleanEnv, serverEnv, startTestkit, type Testkit } from "@resmon/testkit";
import {
  type Era,
  FIRST_CALL_DELAY_MS,
  type Launch,
  measureCallAfterOpening,
  measureColdStart,
  measureFirstCall,
  serverOnce,
} from "./coldstart.js";
import { floorRssMiB } from "./floor-rss.js";
import { measureInProcess } from "./inprocess.js";
import { builtFloorServer, builtServer, floorServer, packedServer } from "./launch.js";
import { type MemoryReport, measureMemory } from "./memory.js";
import {
  inProcessBackend,
  measurePerCall,
  measureSideBySide,
  type PerCallReport,
  type SideBySide,
} from "./percall.js";
import { measurePipeline } from "./pipeline.js";
import { finishRecording, missesOf, missLines, recordFlag } from "./record.js";
import { type Row, renderTable, row, writeJson } from "./report.js";
import { measureScan, type ScanRun, scanRows } from "./scan.js";
import { measureScanQuality, scanQualityRows, synergyAvailable } from "./scan-quality.js";
import { type BenchBackend, startStandinProcess } from "./standin.js";
import { measureStandinStart } from "./standin-start.js";
import { tokenRows } from "./token-report.js";

type Labelled = { label: string; launch: Launch };
const PACKED_LABEL = "packed tarball, installed as npx does";

const nodeScript = (path: string): Launch => ({ command: process.execPath, args: [path] });
const SAME_PROCESS = "stand-in inside the bench process";
const BRIDGE = nodeScript(join(import.meta.dirname, "bridge.mjs"));
const BRIDGE_LABEL = "minimal stdio bridge, bench/bridge.mjs";
const PLAIN_BRIDGE: Labelled = { label: BRIDGE_LABEL, launch: BRIDGE };
/**
 * The floor for "an MCP server on this SDK": the same SDK with the contract's number of trivial
 * tools (floor-server.mjs), built as the bin is; set once built (launchesOf).
 */
const FLOOR_SERVER: Labelled = {
  label: "floor server (same SDK and tool count, built alike)",
  launch: floorServer(),
};
/**
 * The floor server whose health asks resmon once (`--one-request`): what any server that reaches
 * resmon pays on its first call beyond the trivial floor, shown beside the goal as information.
 */
const ONE_REQUEST_FLOOR: Labelled = {
  label: "floor server asking resmon once (info)",
  launch: floorServer(),
};

const argv = process.argv.slice(2);
const short = argv.includes("--short");
/** `--cold-start`: only the cold-start phase (for iteration; never recorded). */
const coldOnly = argv.includes("--cold-start");
/** Write the committed results (tools/bench/results/*.json), which the docs quote: only when asked. */
const record = recordFlag(argv) && !coldOnly;
/** Exit 1 when a figure misses its goal (off by default: a shared machine's noise is not a bug). */
const strict = argv.includes("--strict");
/** `--compare <label>=<bin>`, repeatable: another build of the bin measured in the same run. */
const compared: { label: string; bin: string }[] = argv.flatMap((arg, i) => {
  const next = argv[i + 1];
  if (arg !== "--compare" || !next?.includes("=")) return [];
  const at = next.indexOf("=");
  return [{ label: next.slice(0, at), bin: resolve(next.slice(at + 1)) }];
});
const REPO_ROOT = join(import.meta.dirname, "..", "..", "..");
const settings = short
  ? { coldRounds: 8, callsPerCase: 1_000, throughputCalls: 300, memoryCalls: 10_000 }
  : { coldRounds: 30, callsPerCase: 3_000, throughputCalls: 600, memoryCalls: 10_000 };

function say(text: string): void {
  process.stderr.write(`${text}\n`);
}

const loadNow = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");

function perCallRows(label: string, perCall: PerCallReport, asGoal = true): Row[] {
  const rows: Row[] = [];
  const tag = label ? ` [${label}]` : "";
  for (const o of perCall.overhead) {
    rows.push(
      row(
        `per-call overhead, ${o.label}, ${o.calls} calls, median${tag}`,
        "ms",
        o.overhead.median,
        o.direct.median,
        asGoal ? "< 0.5 ms" : "info",
        asGoal ? o.overhead.median < 0.5 : null,
      ),
      row(
        `per-call overhead, ${o.label}, p99${tag}`,
        "ms",
        o.overhead.p99,
        o.direct.p99,
        asGoal ? "< 2 ms" : "info",
        asGoal ? o.overhead.p99 < 2 : null,
      ),
      row(`server process CPU per call, ${o.label}${tag}`, "ms", o.serverCpuMsPerCall, null, "info", null),
    );
  }
  const { overheadPhase, overheadCalls, throughputTool } = perCall.sockets;
  rows.push(
    row(
      `new connections the server opened during ${overheadCalls} sequential calls${tag}`,
      "",
      overheadPhase.server,
      null,
      "≤ 1 (reused)",
      overheadPhase.server <= 1,
    ),
  );
  for (const [i, t] of perCall.throughput.entries()) {
    const sockets = throughputTool[i] ?? 0;
    rows.push(
      row(
        `throughput, health, ${t.inFlight} in flight (tool calls/s vs direct)${tag}`,
        "/s",
        t.toolPerSec,
        t.directPerSec,
        "info",
        null,
      ),
      row(`new connections, ${t.inFlight} in flight${tag}`, "", sockets, null, "≤ 8 (pool)", sockets <= 8),
    );
  }
  return rows;
}

/**
 * Issue 12's per-call goal: the server's overhead within 0.15 ms (median) of the bridge's, in one
 * loop; and each `--compare` build's overhead in that same loop (info), the fair before/after.
 */
function sideBySideRows(measured: SideBySide[]): Row[] {
  return measured.flatMap((m) => [
    row(
      `per-call overhead, ${m.label}, median, vs the minimal stdio bridge's, both in one loop (${m.calls} calls each)`,
      "ms",
      m.server,
      m.bridge,
      "≤ bridge + 0.15 ms",
      m.server - m.bridge <= 0.15,
    ),
    ...Object.entries(m.compared).map(([label, overhead]) =>
      row(
        `per-call overhead, ${m.label}, median, ${label} vs this build, in the same loop (${m.calls} calls each)`,
        "ms",
        overhead,
        m.server,
        "info",
        null,
      ),
    ),
  ]);
}

/** The same comparison from the separate phases (the bridge measured after the server): info only. */
function overBridgeRows(label: string, perCall: PerCallReport, bridge: PerCallReport): Row[] {
  const tag = label ? ` [${label}]` : "";
  return perCall.overhead.flatMap((o) => {
    const b = bridge.overhead.find((x) => x.label === o.label);
    if (!b) return [];
    return [
      row(
        `per-call overhead, ${o.label}, median, vs the minimal stdio bridge's, separate phases${tag}`,
        "ms",
        o.overhead.median,
        b.overhead.median,
        "info",
        null,
      ),
    ];
  });
}

/** What one part of the run measured: its rows for the table, and its data for bench.json. */
interface Phase {
  rows: Row[];
  json: Record<string, unknown>;
}

const eraLabel = (era: Era) =>
  era === "legacy" ? "2025 era (initialize)" : "2026-07-28 era (server/discover)";

/** The builds measured: the built bin, the packed tarball where it packs, and each `--compare`. */
async function launchesOf(stateDir: string): Promise<{ launches: Labelled[]; packed: string | null }> {
  const launches: Labelled[] = [{ label: "built server", launch: builtServer() }];
  FLOOR_SERVER.launch = await builtFloorServer(stateDir);
  ONE_REQUEST_FLOOR.launch = { ...FLOOR_SERVER.launch, args: [...FLOOR_SERVER.launch.args, "--one-request"] };
  // --cold-start leaves the tarball out: it is for iterating on the built bin.
  const packed = coldOnly ? { ok: false as const, reason: "--cold-start" } : await packedServer(stateDir);
  if (packed.ok) launches.push({ label: PACKED_LABEL, launch: packed.launch });
  for (const { label, bin } of compared) launches.push({ label, launch: nodeScript(bin) });
  return { launches, packed: packed.ok ? null : packed.reason };
}

/** The builds that serve an era (an older one may not: it is left out of that era's rows). */
const serving = new Map<Era, Promise<Labelled[]>>();
function servingEra(launches: Labelled[], env: Record<string, string>, era: Era): Promise<Labelled[]> {
  let found = serving.get(era);
  if (!found) {
    found = probeEra(launches, env, era);
    serving.set(era, found);
  }
  return found;
}

async function probeEra(launches: Labelled[], env: Record<string, string>, era: Era): Promise<Labelled[]> {
  const serving: Labelled[] = [];
  for (const l of launches) {
    const served = await serverOnce(l.launch, env, false, era).then(
      () => true,
      (error: unknown) => {
        say(
          `${l.label}: no cold start in the ${era} era (${error instanceof Error ? error.message : error})`,
        );
        return false;
      },
    );
    if (served) serving.push(l);
  }
  return serving;
}

/**
 * Backend requests in the stand-in's log, those the server makes by itself apart: the start-up
 * probe's discovery (GET /api/health), and the route list the first call reads (GET /openapi.json).
 */
const AT_START = (r: { method: string; path: string }) =>
  r.method === "GET" && (r.path === "/api/health" || r.path === "/openapi.json");
function requestsOf(kit: Testkit): { atStart: number; other: string[] } {
  return {
    atStart: kit.requests.filter(AT_START).length,
    other: kit.requests.filter((r) => !AT_START(r)).map((r) => `${r.method} ${r.path}`),
  };
}

/**
 * What a user waits on at start, in both eras: spawn → tools/list and spawn → the first tool call
 * answered, each build against the floor server measured interleaved in the same run (bare node
 * beside it, as information); and the backend requests those starts made (none but the probe's).
 */
async function coldStartPhase(kit: Testkit, launches: Labelled[]): Promise<Phase> {
  const env = serverEnv(kit);
  const rows: Row[] = [];
  const json: Record<string, unknown> = {};
  kit.clearRequests();
  for (const era of ["legacy", "modern"] as const) {
    const serving = await servingEra(launches, env, era);
    say(`cold start, ${era} era: ${settings.coldRounds} rounds…`);
    const cold = await measureColdStart([...serving, FLOOR_SERVER], env, settings.coldRounds, era);
    const floor = cold.servers.find((server) => server.label === FLOOR_SERVER.label)?.median ?? Number.NaN;
    for (const server of cold.servers) {
      const isFloor = server.label === FLOOR_SERVER.label;
      const what = `spawn → tools/list answered, ${eraLabel(era)}, ${server.label} (median)`;
      if (!isFloor)
        rows.push(
          row(
            `${what} vs the floor server's`,
            "ms",
            server.median,
            floor,
            "ratio ≤ 1.2",
            server.median / floor <= 1.2,
          ),
        );
      // Bare node (start, read a line, echo it): information only, what no MCP server can go below.
      rows.push(row(`${what} vs bare node`, "ms", server.median, cold.floor.median, "info", null));
    }
    json[`coldStart.${era}`] = cold;
  }
  const atStart = requestsOf(kit);
  rows.push(
    row(
      "backend requests during all cold starts to tools/list, the start-up probe's apart (discovery stays lazy)",
      "",
      atStart.other.length,
      null,
      "0",
      atStart.other.length === 0,
    ),
    row(
      "the start-up probe's requests during those cold starts (GET /api/health, /openapi.json)",
      "",
      atStart.atStart,
      null,
      "info",
      null,
    ),
  );
  json.requestsAtColdStart = atStart;
  for (const era of ["legacy", "modern"] as const) {
    say(`first tool call after start, ${era} era…`);
    const serving = await servingEra(launches, env, era);
    const firstCall = await measureFirstCall(
      [...serving, FLOOR_SERVER, ONE_REQUEST_FLOOR],
      env,
      settings.coldRounds,
      era,
    );
    const floor = firstCall.find((f) => f.label === FLOOR_SERVER.label)?.median ?? Number.NaN;
    for (const f of firstCall) {
      const isFloor = f.label === FLOOR_SERVER.label;
      const isGoal = !isFloor && f.label !== ONE_REQUEST_FLOOR.label;
      const what = `spawn → first tool call (health) answered, ${eraLabel(era)}, ${f.label} (median)`;
      if (!isFloor)
        rows.push(
          row(
            `${what} vs the floor server's`,
            "ms",
            f.median,
            floor,
            isGoal ? "ratio ≤ 1.1" : "info",
            isGoal ? f.median / floor <= 1.1 : null,
          ),
        );
      rows.push(row(`${what} vs bare node`, "ms", f.median, f.floor, "info", null));
    }
    json[`firstCall.${era}`] = firstCall;
  }
  return { rows, json };
}

/**
 * A health call one second after the opening, against a call of the same warmed process after the
 * same pause and back to back (both info); the minimal bridge measured alike as the floor of
 * both ratios.
 */
async function callAfterOpeningPhase(kit: Testkit, launches: Labelled[]): Promise<Phase> {
  say(`a call ${FIRST_CALL_DELAY_MS} ms after the opening…`);
  const env = serverEnv(kit);
  const rows: Row[] = [];
  const json: Record<string, unknown> = {};
  const seconds = FIRST_CALL_DELAY_MS / 1000;
  for (const era of ["legacy", "modern"] as const) {
    const serving = (await servingEra(launches, env, era)).filter((l) => l.label !== PACKED_LABEL);
    const after = await measureCallAfterOpening(
      [...serving, PLAIN_BRIDGE],
      env,
      Math.ceil(settings.coldRounds / 3),
      era,
    );
    for (const a of after) {
      const what = `a health call ${seconds} s after the opening, ${eraLabel(era)}, ${a.label} (median)`;
      rows.push(
        row(
          `${what} vs a call of the same warmed process ${seconds} s after its previous one`,
          "ms",
          a.median,
          a.paused,
          // Information since the warm-up call went (issue 42): what a user waits on at start is
          // held by spawn → first tool call against the floor server (coldStartPhase).
          "info",
          null,
        ),
        row(`${what} vs a back-to-back call of the same process`, "ms", a.median, a.backToBack, "info", null),
      );
    }
    json[era] = after;
  }
  return { rows, json };
}

function standinStartRows(seeds: Record<string, number>, floor: number): Row[] {
  return Object.entries(seeds).map(([seed, ms]) =>
    row(`stand-in ready, resmon-testkit serve --seed ${seed} (median)`, "ms", ms, floor, "info", null),
  );
}

/**
 * Per call against the stand-in in its own process: the built server, the minimal bridge, both
 * side by side, and each compared build.
 */
async function perCallPhase(standin: BenchBackend): Promise<Phase & { report: PerCallReport }> {
  say(`per call: ${settings.callsPerCase} calls per case, throughput…`);
  const rows: Row[] = [];
  const perCall = await measurePerCall(standin, builtServer(), settings);
  rows.push(...perCallRows("", perCall));
  // The second floor: what a stdio bridge that does nothing but relay pays for the same calls.
  say("per call, minimal stdio bridge…");
  const bridge = await measurePerCall(standin, BRIDGE, { ...settings, overheadOnly: true });
  rows.push(...perCallRows(BRIDGE_LABEL, bridge, false), ...overBridgeRows("", perCall, bridge));
  say("per call, the server and the bridge side by side…");
  const sideBySide = await measureSideBySide(
    standin,
    builtServer(),
    BRIDGE,
    settings.callsPerCase,
    compared.map(({ label, bin }) => ({ label, launch: nodeScript(bin) })),
  );
  rows.push(...sideBySideRows(sideBySide));
  const perCallCompared: Record<string, PerCallReport> = {};
  for (const { label, bin } of compared) {
    say(`per call, ${label}…`);
    const other = await measurePerCall(standin, nodeScript(bin), settings);
    rows.push(...perCallRows(label, other), ...overBridgeRows(label, other, bridge));
    perCallCompared[label] = other;
  }
  const json = { perCall, perCallMinimalBridge: bridge, perCallSideBySide: sideBySide, perCallCompared };
  return { rows, json, report: perCall };
}

function memoryRows(label: string, m: MemoryReport, floor: MemoryReport, bareRss: number): Row[] {
  const isServer = label === "built server";
  const tag = isServer ? "" : ` [${label}]`;
  const calls = m.calls.toLocaleString("en-US");
  const twice = (m.calls * 2).toLocaleString("en-US");
  const gc = m.forcedGc ? ", after a forced full GC" : "";
  const withinFloor = m.afterCallsMiB <= 1.1 * floor.afterCallsMiB && m.afterCallsMiB <= 95;
  const rows = [
    row(`RSS after start and one call (vs bare node)${tag}`, "MiB", m.afterStartMiB, bareRss, "info", null),
    row(
      `RSS after ${calls} health calls${gc} (vs the floor server's, same calls)${tag}`,
      "MiB",
      m.afterCallsMiB,
      floor.afterCallsMiB,
      isServer ? "ratio ≤ 1.1 and ≤ 95 MiB" : "info",
      isServer ? withinFloor : null,
    ),
    row(
      `peak RSS over the memory run (vs the floor server's)${tag}`,
      "MiB",
      m.peakMiB,
      floor.peakMiB,
      isServer ? "≤ 115 MiB" : "info",
      isServer ? m.peakMiB <= 115 : null,
    ),
    row(
      `RSS after ${twice} calls (vs after ${calls}; a leak grows)${gc}${tag}`,
      "MiB",
      m.afterTwiceMiB,
      m.afterCallsMiB,
      "ratio ≤ 1.05",
      m.afterTwiceMiB / m.afterCallsMiB <= 1.05,
    ),
  ];
  if (m.forcedGc)
    rows.push(
      row(
        `V8 heap in use after ${twice} calls (vs after ${calls}), after a forced full GC${tag}`,
        "MiB",
        m.heapAfterTwiceMiB,
        m.heapAfterCallsMiB,
        "info",
        null,
      ),
    );
  return rows;
}

/** Memory of the built server and each compared build, beside the floor server, each in a fresh process. */
async function memoryPhase(standin: BenchBackend): Promise<Phase> {
  say(`memory: ${settings.memoryCalls} calls twice, each build and the floor server…`);
  const env = serverEnv(standin);
  const clear = () => standin.clearRequests();
  const bareRss = await floorRssMiB();
  const floor = await measureMemory(FLOOR_SERVER.launch, env, settings.memoryCalls, clear);
  const builds: Labelled[] = [
    { label: "built server", launch: builtServer() },
    ...compared.map(({ label, bin }) => ({ label, launch: nodeScript(bin) })),
  ];
  const rows: Row[] = [];
  const json: Record<string, unknown> = { bareNodeMiB: bareRss, [FLOOR_SERVER.label]: floor };
  for (const { label, launch } of builds) {
    const m = await measureMemory(launch, env, settings.memoryCalls, clear);
    rows.push(...memoryRows(label, m, floor, bareRss));
    json[label] = m;
  }
  const calls = settings.memoryCalls.toLocaleString("en-US");
  rows.push(
    row(
      `RSS after ${calls} calls, ${FLOOR_SERVER.label} (vs bare node)`,
      "MiB",
      floor.afterCallsMiB,
      bareRss,
      "info",
      null,
    ),
    row(`peak RSS, ${FLOOR_SERVER.label} (vs bare node)`, "MiB", floor.peakMiB, bareRss, "info", null),
  );
  return { rows, json };
}

/** The built server with the stand-in inside the bench process, as runs before the stand-in had its own. */
async function sameProcessPhase(kit: Testkit): Promise<Phase> {
  say("per call, stand-in inside the bench process…");
  const local = inProcessBackend(kit);
  try {
    const sameProcess = await measurePerCall(local, builtServer(), { ...settings, overheadOnly: true });
    return { rows: perCallRows(SAME_PROCESS, sameProcess, false), json: { sameProcess } };
  } finally {
    local.dispose();
  }
}

/** The server's own work per call through the SDK, backend answers replayed (pipeline.ts). */
async function pipelinePhase(standin: BenchBackend, steady: PerCallReport): Promise<Phase> {
  say("the server's own pipeline…");
  // Information only: a failed replay is said and recorded, and the rest of the run still counts.
  const pipeline = await measurePipeline(standin, settings.callsPerCase).catch((error: unknown) => {
    say(`the pipeline was not measured: ${error instanceof Error ? error.message : String(error)}`);
    return error instanceof Error ? error.message : String(error);
  });
  if (typeof pipeline === "string") return { rows: [], json: { pipelineFailed: pipeline } };
  const eraName = (era: Era) => (era === "legacy" ? "2025 era" : "2026-07-28 era");
  const rows: Row[] = [];
  for (const p of pipeline)
    for (const era of ["legacy", "modern"] as const)
      rows.push(
        row(
          `server's own work per call through the SDK, ${eraName(era)}, parsed request → answer serialized, backend answer replayed, ${p.label}, median (vs the tool pipeline alone, no protocol layer)`,
          "µs",
          p[era].median,
          p.tools.median,
          "info",
          null,
        ),
      );
  // The SDK's part of a call in a hot loop in process (less than it costs over stdio). Info.
  for (const p of pipeline) {
    const o = steady.overhead.find((x) => x.label === p.label);
    if (!o) continue;
    for (const era of ["legacy", "modern"] as const)
      rows.push(
        row(
          `the SDK's part of a call in a hot loop in process, ${eraName(era)}, ${p.label} (vs the per-call overhead over stdio)`,
          "ms",
          (p[era].median - p.tools.median) / 1000,
          o.overhead.median,
          "info",
          null,
        ),
      );
  }
  return { rows, json: { pipeline } };
}

/** The tool pipeline in this process (no stdio) against the stand-in's own process. */
async function inProcessPhase(standin: BenchBackend): Promise<Phase> {
  say("in process…");
  const inProcess = await measureInProcess(standin, settings.callsPerCase);
  const rows = inProcess.flatMap((o) => [
    row(
      `in-process overhead (no stdio), ${o.label}, median`,
      "ms",
      o.overhead.median,
      o.direct.median,
      "info",
      null,
    ),
    row(`in-process overhead (no stdio), ${o.label}, p99`, "ms", o.overhead.p99, o.direct.p99, "info", null),
  ]);
  return { rows, json: { inProcess } };
}

async function scanPhase(kit: Testkit): Promise<Phase> {
  say("a whole scan…");
  const scans: ScanRun[] = [];
  for (const retrieval of ["sweep", "corpus"] as const) scans.push(await measureScan(kit, retrieval));
  return { rows: scans.flatMap(scanRows), json: { scan: scans } };
}

/** Scan quality on the SYNERGY reviews (scan-quality.ts; alone: `pnpm bench:scan-quality`). */
async function scanQualityPhase(): Promise<Phase> {
  if (!synergyAvailable()) {
    say("scan quality: ../shared/datasets/synergy is not here; not measured");
    return { rows: [], json: { scanQuality: "not measured: no SYNERGY records" } };
  }
  const load = loadNow();
  const report = await measureScanQuality(short ? ["standard"] : ["quick", "standard"], say);
  return { rows: scanQualityRows(report, load), json: { scanQuality: report } };
}

/** Everything against the stand-in in its own process (standin.ts says why). */
async function standinPhases(kit: Testkit, launches: Labelled[]): Promise<Phase[]> {
  const standin = await startStandinProcess(mkdtempSync(join(tmpdir(), "resmon-bench-standin-")));
  try {
    const perCall = await perCallPhase(standin);
    const memory = await memoryPhase(standin);
    const pipeline = await pipelinePhase(standin, perCall.report);
    const inProcess = await inProcessPhase(standin);
    const afterOpening = await callAfterOpeningPhase(kit, launches);
    return [perCall, afterOpening, memory, pipeline, inProcess];
  } finally {
    await standin.stop();
    rmSync(standin.stateDir, { recursive: true, force: true });
  }
}

/** Every part of the run, in order; the table keeps this order. */
async function measure(kit: Testkit, stateDir: string): Promise<Phase[]> {
  const { launches, packed } = await launchesOf(stateDir);
  if (packed !== null) say(`packed tarball not measured: ${packed}`);
  const phases: Phase[] = [{ rows: [], json: packed === null ? {} : { packed } }];
  phases.push(await coldStartPhase(kit, launches));
  if (coldOnly) return phases;
  say("the stand-in's own start…");
  const standinStart = await measureStandinStart(["demo", "small"], cleanEnv(), settings.coldRounds);
  phases.push({ rows: standinStartRows(standinStart.seeds, standinStart.floor), json: { standinStart } });
  phases.push(...(await standinPhases(kit, launches)));
  phases.push(await sameProcessPhase(kit));
  say("tokens…");
  const tokens = await tokenRows(kit);
  process.stdout.write(`\n${tokens.heading}\n${renderTable(tokens.detail)}\n`);
  phases.push({ rows: tokens.summary, json: { tokens: tokens.json } });
  phases.push(await scanPhase(kit));
  phases.push(await scanQualityPhase());
  return phases;
}

async function main(): Promise<void> {
  const loadAtStart = loadNow();
  const stateDir = mkdtempSync(join(tmpdir(), "resmon-bench-"));
  const kit = await startTestkit({ stateDir, seed: "demo" });
  let phases: Phase[];
  try {
    phases = await measure(kit, stateDir);
  } finally {
    await kit.stop();
    rmSync(stateDir, { recursive: true, force: true });
  }
  const cpu = cpus()[0]?.model ?? "cpu";
  const machine = `${cpus().length} × ${cpu}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}; load average at start ${loadAtStart}, at end ${loadNow()}`;
  const date = new Date().toISOString();
  // A figure that cannot be true is marked as a miss, with its reason (record.ts).
  const rows = finishRecording(
    REPO_ROOT,
    { date, machine, short, rows: phases.flatMap((p) => p.rows) },
    record,
    say,
  );
  writeJson(join(REPO_ROOT, "bench-results", "bench.json"), {
    date,
    machine,
    short,
    settings,
    compared,
    rows,
    ...Object.assign({}, ...phases.map((p) => p.json)),
  });
  say("written: bench-results/bench.json (everything measured, not committed)");
  process.stdout.write(
    `\npnpm bench${short ? " --short" : ""} — ${date} — ${machine}\n${renderTable(rows)}\n`,
  );
  const misses = missesOf(rows);
  for (const line of missLines(misses, strict)) process.stdout.write(`${line}\n`);
  if (strict && misses.goals.length > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
