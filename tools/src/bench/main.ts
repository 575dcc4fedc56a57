/**
 * `pnpm bench [--short] [--record] [--strict] [--compare <label>=<bin>]…`: cold start, per-call overhead, throughput,
 * memory and tokens of the built server, each beside its floor measured in the same run. Prints a
 * table and writes bench-results/bench.json at the repository root (and, with `--record`, the
 * committed tools/bench/results/short.json or full.json the docs quote). `--compare` also measures
 * another build of the bin (say, a copy of an older dist/resmon-mcp.cjs, beside its package.json)
 * in the same run, for before/after tables.
 * See tools/bench/RESULTS.md for recorded runs.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { cleanEnv, serverEnv, startTestkit, type Testkit } from "@resmon/testkit";
import { type Era, type Launch, measureColdStart, measureFirstCall, serverOnce } from "./coldstart.js";
import { floorRssMiB } from "./floor-rss.js";
import { measureInProcess } from "./inprocess.js";
import { builtServer, packedServer } from "./launch.js";
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
import { startStandinProcess } from "./standin.js";
import { measureStandinStart } from "./standin-start.js";
import { tokenRows } from "./token-report.js";

const SAME_PROCESS = "stand-in inside the bench process";
const BRIDGE = join(import.meta.dirname, "bridge.mjs");
const BRIDGE_LABEL = "minimal stdio bridge, bench/bridge.mjs";

const argv = process.argv.slice(2);
const short = argv.includes("--short");
/** Write the committed results (tools/bench/results/*.json), which the docs quote: only when asked. */
const record = recordFlag(argv);
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

function perCallRows(label: string, perCall: PerCallReport, bareRss: number, asGoal = true): Row[] {
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
  const m = perCall.memory;
  if (m === null) return rows;
  const calls = m.calls.toLocaleString("en-US");
  const twice = (m.calls * 2).toLocaleString("en-US");
  const gc = m.forcedGc ? ", each reading after a forced full GC (--expose-gc)" : "";
  rows.push(
    row(`RSS after start and one call (vs bare node)${tag}`, "MiB", m.afterStartMiB, bareRss, "info", null),
    row(
      `RSS after ${calls} calls (vs after start)${gc}${tag}`,
      "MiB",
      m.afterCallsMiB,
      m.afterStartMiB,
      "info",
      null,
    ),
    row(
      `RSS after ${twice} calls (vs after ${calls}; a leak grows)${gc}${tag}`,
      "MiB",
      m.afterTwiceMiB,
      m.afterCallsMiB,
      "ratio ≤ 1.05",
      m.afterTwiceMiB / m.afterCallsMiB <= 1.05,
    ),
  );
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

async function measure(
  kit: Testkit,
  stateDir: string,
  rows: Row[],
  extra: Record<string, unknown>,
): Promise<void> {
  const env = serverEnv(kit);
  const launches: { label: string; launch: Launch }[] = [{ label: "built server", launch: builtServer() }];
  const packed = await packedServer(stateDir);
  if (packed.ok) launches.push({ label: "packed tarball, installed as npx does", launch: packed.launch });
  else extra.packed = packed.reason;
  for (const { label, bin } of compared)
    launches.push({ label, launch: { command: process.execPath, args: [bin] } });

  const eraLabel = (era: Era) =>
    era === "legacy" ? "2025 era (initialize)" : "2026-07-28 era (server/discover)";
  const coldStarts: Record<string, unknown> = {};
  const firstCalls: Record<string, unknown> = {};
  kit.clearRequests();
  for (const era of ["legacy", "modern"] as const) {
    // A build that does not serve this era (an older one, say) is left out of its rows.
    const serving: { label: string; launch: Launch }[] = [];
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
    say(`cold start, ${era} era: ${settings.coldRounds} rounds…`);
    const cold = await measureColdStart(serving, env, settings.coldRounds, era);
    for (const server of cold.servers) {
      const ratio = server.median / cold.floor.median;
      rows.push(
        row(
          `cold start to tools/list, ${eraLabel(era)}, ${server.label} (median)`,
          "ms",
          server.median,
          cold.floor.median,
          "ratio ≤ 1.3",
          ratio <= 1.3,
        ),
      );
    }
    coldStarts[era] = cold;
    say(`first tool call after start, ${era} era…`);
    const firstCall = await measureFirstCall(serving, env, Math.ceil(settings.coldRounds / 3), era);
    for (const f of firstCall) {
      rows.push(
        row(
          `spawn → tools/list → first call (health) answered, ${eraLabel(era)}, ${f.label} (median)`,
          "ms",
          f.median,
          f.floor,
          "info",
          null,
        ),
      );
    }
    firstCalls[era] = firstCall;
  }
  const startRequests = kit.requests.filter((r) => !r.path.includes("health")).length;
  if (!packed.ok) say(`packed tarball not measured: ${packed.reason}`);
  rows.push(
    row(
      "backend requests during all cold starts but the first calls' health (discovery stays lazy)",
      "",
      startRequests,
      null,
      "0",
      startRequests === 0,
    ),
  );
  extra.coldStart = coldStarts;
  extra.firstCall = firstCalls;

  say("the stand-in's own start…");
  const standinStart = await measureStandinStart(["demo", "small"], cleanEnv(), settings.coldRounds);
  for (const [seed, ms] of Object.entries(standinStart.seeds)) {
    rows.push(
      row(
        `stand-in ready, resmon-testkit serve --seed ${seed} (median)`,
        "ms",
        ms,
        standinStart.floor,
        "info",
        null,
      ),
    );
  }

  const bareRss = await floorRssMiB();
  say(`per call: ${settings.callsPerCase} calls per case, throughput, memory…`);
  // The stand-in runs in its own process here, as resmon does (standin.ts says why).
  const standin = await startStandinProcess(mkdtempSync(join(tmpdir(), "resmon-bench-standin-")));
  const perCallCompared: Record<string, PerCallReport> = {};
  let builtPerCall: PerCallReport | undefined;
  try {
    const perCall = await measurePerCall(standin, builtServer(), settings);
    builtPerCall = perCall;
    rows.push(...perCallRows("", perCall, bareRss));
    extra.perCall = perCall;
    // The second floor: what a stdio bridge that does nothing but relay pays for the same calls.
    say("per call, minimal stdio bridge…");
    const bridge = await measurePerCall(
      standin,
      { command: process.execPath, args: [BRIDGE] },
      {
        ...settings,
        overheadOnly: true,
      },
    );
    rows.push(...perCallRows(BRIDGE_LABEL, bridge, bareRss, false));
    rows.push(...overBridgeRows("", perCall, bridge));
    extra.perCallMinimalBridge = bridge;
    say("per call, the server and the bridge side by side…");
    const sideBySide = await measureSideBySide(
      standin,
      builtServer(),
      { command: process.execPath, args: [BRIDGE] },
      settings.callsPerCase,
      compared.map(({ label, bin }) => ({ label, launch: { command: process.execPath, args: [bin] } })),
    );
    rows.push(...sideBySideRows(sideBySide));
    extra.perCallSideBySide = sideBySide;
    for (const { label, bin } of compared) {
      say(`per call, ${label}…`);
      const other = await measurePerCall(standin, { command: process.execPath, args: [bin] }, settings);
      rows.push(...perCallRows(label, other, bareRss));
      rows.push(...overBridgeRows(label, other, bridge));
      perCallCompared[label] = other;
    }
  } finally {
    await standin.stop();
    rmSync(standin.stateDir, { recursive: true, force: true });
  }
  extra.perCallCompared = perCallCompared;
  // For comparison with runs before the stand-in had its own process: the same overhead with the
  // stand-in inside this process, where the direct request never crosses a process boundary.
  say("per call, stand-in inside the bench process…");
  const local = inProcessBackend(kit);
  try {
    const sameProcess = await measurePerCall(local, builtServer(), { ...settings, overheadOnly: true });
    rows.push(...perCallRows(SAME_PROCESS, sameProcess, bareRss, false));
    extra.perCallStandinInBenchProcess = sameProcess;
  } finally {
    local.dispose();
  }
  say("the server's own pipeline…");
  const pipeline = await measurePipeline(kit, settings.callsPerCase);
  for (const p of pipeline) {
    for (const era of ["legacy", "modern"] as const) {
      rows.push(
        row(
          `server's own work per call through the SDK, ${era === "legacy" ? "2025 era" : "2026-07-28 era"}, parsed request → answer serialized, backend answer canned, ${p.label}, median (vs the tool pipeline alone, no protocol layer)`,
          "µs",
          p[era].median,
          p.tools.median,
          "info",
          null,
        ),
      );
    }
  }
  // The SDK's part of a call in a hot loop in process (less than it costs over stdio). Info.
  for (const p of pipeline) {
    const o = builtPerCall?.overhead.find((x) => x.label === p.label);
    if (!o) continue;
    for (const era of ["legacy", "modern"] as const) {
      const part = (p[era].median - p.tools.median) / 1000;
      rows.push(
        row(
          `the SDK's part of a call in a hot loop in process, ${era === "legacy" ? "2025 era" : "2026-07-28 era"}, ${p.label} (vs the per-call overhead over stdio)`,
          "ms",
          part,
          o.overhead.median,
          "info",
          null,
        ),
      );
    }
  }
  extra.pipeline = pipeline;
  say("in process…");
  const inProcess = await measureInProcess(kit, settings.callsPerCase);
  for (const o of inProcess) {
    rows.push(
      row(
        `in-process overhead (no stdio), ${o.label}, median`,
        "ms",
        o.overhead.median,
        o.direct.median,
        "info",
        null,
      ),
      row(
        `in-process overhead (no stdio), ${o.label}, p99`,
        "ms",
        o.overhead.p99,
        o.direct.p99,
        "info",
        null,
      ),
    );
  }
  extra.inProcess = inProcess;

  say("tokens…");
  const tokens = await tokenRows(kit);
  rows.push(...tokens.summary);
  extra.tokens = tokens.json;
  process.stdout.write(`\n${tokens.heading}\n${renderTable(tokens.detail)}\n`);

  say("a whole scan…");
  const scans: ScanRun[] = [];
  for (const retrieval of ["sweep", "corpus"] as const) {
    const run = await measureScan(kit, retrieval);
    scans.push(run);
    rows.push(...scanRows(run));
  }
  extra.scan = scans;
}

async function main(): Promise<void> {
  const loadAtStart = loadNow();
  const stateDir = mkdtempSync(join(tmpdir(), "resmon-bench-"));
  const kit = await startTestkit({ stateDir, seed: "demo" });
  const rows: Row[] = [];
  const extra: Record<string, unknown> = {};
  try {
    await measure(kit, stateDir, rows, extra);
  } finally {
    await kit.stop();
    rmSync(stateDir, { recursive: true, force: true });
  }
  const cpu = cpus()[0]?.model ?? "cpu";
  const machine = `${cpus().length} × ${cpu}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}; load average at start ${loadAtStart}, at end ${loadNow()}`;
  const date = new Date().toISOString();
  // A figure that cannot be true is marked as a miss, with its reason (record.ts).
  const recorded = finishRecording(REPO_ROOT, { date, machine, short, rows }, record, say);
  writeJson(join(REPO_ROOT, "bench-results", "bench.json"), {
    date,
    machine,
    short,
    settings,
    compared,
    rows: recorded,
    ...extra,
  });
  say("written: bench-results/bench.json (everything measured, not committed)");
  process.stdout.write(
    `\npnpm bench${short ? " --short" : ""} — ${date} — ${machine}\n${renderTable(recorded)}\n`,
  );
  const misses = missesOf(recorded);
  for (const line of missLines(misses, strict)) process.stdout.write(`${line}\n`);
  if (strict && misses.goals.length > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
