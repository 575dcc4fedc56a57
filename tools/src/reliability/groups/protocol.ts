import { type GroupRun, kitFor, tempDir } from "../context.js";
import { judge } from "../outcome.js";
import { cleanEnv } from "../proc.js";
import { errorCode, type Frame, RawSession } from "../raw.js";
import { GROUP_TITLES } from "../titles.js";

const GROUP = GROUP_TITLES.protocol;

/** The server is still serving: a ping with a fresh id is answered. */
async function stillServing(s: RawSession, id: string): Promise<string | null> {
  const pong = await s.request(id, "ping", undefined, 15_000);
  if (!s.proc.alive) return `process exited (${JSON.stringify(s.proc.exit)})`;
  return pong && "result" in pong ? null : "no answer to a ping afterwards";
}

/** What a tools/call answered: a JSON-RPC error, or a tool result that is a contract envelope. */
function callAnswerProblem(frame: Frame | null): string | null {
  if (!frame) return "no answer";
  if (errorCode(frame) !== null) return null;
  const outcome = judge("?", frame.result, 0);
  if (outcome.kind === "error") return null;
  return `answered neither a JSON-RPC error nor a contract envelope: ${JSON.stringify(frame).slice(0, 200)}`;
}

interface Case {
  name: string;
  run: (s: RawSession) => Promise<string | null>;
}

const MALFORMED = [
  "{not json",
  '{"jsonrpc":"2.0","id":',
  "\u0000\u0001\u0002\u00ff",
  "]",
  "{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{",
  `{"jsonrpc":"2.0","id":1,"method":"ping"`,
  "\ufeff{}",
];

/** Valid JSON that is not a JSON-RPC 2.0 message, and the code JSON-RPC 2.0 has the server answer (null: no answer). */
const NOT_JSONRPC: [string, number | null][] = [
  ["[]", -32600],
  ["{}", -32600],
  ["42", -32600],
  ['"ping"', -32600],
  ["null", -32600],
  ["true", -32600],
  ['{"jsonrpc":"1.0","id":"v1","method":"ping"}', -32600],
  ['{"id":"nojsonrpc","method":"ping"}', -32600],
  ['[{"jsonrpc":"2.0","id":"batched","method":"ping"}]', -32600],
  ['{"jsonrpc":"2.0","id":{"an":"object"},"method":"ping"}', -32600],
  ['{"jsonrpc":"2.0","id":"m","method":42}', -32600],
  ['{"jsonrpc":"2.0","id":"p","method":"tools/call","params":[1,2]}', -32600],
  // A response nobody asked for: JSON-RPC gives the server nothing to answer.
  ['{"jsonrpc":"2.0","result":{},"id":"unsolicited-response"}', null],
  ['{"jsonrpc":"2.0","error":{"code":1,"message":"x"},"id":"unsolicited-error"}', null],
];

/** A new error frame with this code arrives within 3 s (a batch may be answered by an array, which RawSession ignores). */
async function answeredWith(s: RawSession, before: number, code: number): Promise<string | null> {
  const deadline = Date.now() + 3000;
  while (Date.now() < deadline) {
    const fresh = s.frames.slice(before);
    if (fresh.some((f) => errorCode(f) === code)) return null;
    if (fresh.some((f) => errorCode(f) !== null)) return `answered ${JSON.stringify(fresh[0]).slice(0, 160)}`;
    await new Promise((r) => setTimeout(r, 50));
  }
  return `no ${code} error frame (JSON-RPC 2.0 requires one)`;
}

let seq = 0;
const nextId = (tag: string) => `${tag}-${++seq}`;

function protocolCases(): Case[] {
  const cases: Case[] = [];
  for (const line of MALFORMED) {
    cases.push({
      name: `malformed JSON ${JSON.stringify(line).slice(0, 30)}`,
      run: async (s) => {
        const before = s.frames.length;
        s.writeLine(line);
        return (await answeredWith(s, before, -32700)) ?? stillServing(s, nextId("after-malformed"));
      },
    });
  }
  for (const [line, code] of NOT_JSONRPC) {
    cases.push({
      name: `not JSON-RPC ${line.slice(0, 40)}`,
      run: async (s) => {
        const before = s.frames.length;
        s.writeLine(line);
        const problem = code === null ? null : await answeredWith(s, before, code);
        return problem ?? stillServing(s, nextId("after-notrpc"));
      },
    });
  }
  for (const method of ["foo/bar", "resources/list", "prompts/list", "tools/delete", "", "rpc.discover"]) {
    cases.push({
      name: `unknown method '${method}'`,
      run: async (s) => {
        const id = nextId("unknown");
        const f = await s.request(id, method, {});
        if (!f) return "no answer";
        if (errorCode(f) === null) return `answered a result: ${JSON.stringify(f).slice(0, 160)}`;
        return stillServing(s, nextId("after-unknown"));
      },
    });
  }
  cases.push({
    name: "unknown notification",
    run: async (s) => {
      s.send({ method: "notifications/never_heard_of_it", params: {} });
      return stillServing(s, nextId("after-notification"));
    },
  });
  const badCalls: [string, unknown][] = [
    ["no params", undefined],
    ["no name", { arguments: {} }],
    ["name a number", { name: 7, arguments: {} }],
    ["unknown tool", { name: "delete_everything", arguments: {} }],
    ["arguments an array", { name: "health", arguments: [] }],
    ["arguments a string", { name: "health", arguments: "{}" }],
    ["arguments a number", { name: "get_routine", arguments: 1 }],
    ["arguments null", { name: "get_routine", arguments: null }],
    ["tool name with unicode", { name: "héalth\u0000", arguments: {} }],
  ];
  for (const [label, params] of badCalls) {
    cases.push({
      name: `tools/call ${label}`,
      run: async (s) => {
        const problem = callAnswerProblem(await s.request(nextId("badcall"), "tools/call", params));
        return problem ?? stillServing(s, nextId("after-badcall"));
      },
    });
  }
  cases.push({
    name: "8 MB line (under the stdio buffer) is answered",
    run: async (s) => {
      const id = nextId("eight-mb");
      const f = await s.request(
        id,
        "tools/call",
        { name: "search_corpus", arguments: { query: "x".repeat(8_000_000) } },
        30_000,
      );
      return callAnswerProblem(f) ?? stillServing(s, nextId("after-8mb"));
    },
  });
  return cases;
}

function preInitCases(): Case[] {
  return [
    {
      name: "tools/call before initialize",
      run: async (s) => {
        const f = await s.request(nextId("preinit"), "tools/call", { name: "health", arguments: {} });
        if (!f) return "no answer";
        return errorCode(f) !== null ? null : callAnswerProblem(f);
      },
    },
    {
      name: "tools/list before initialize",
      run: async (s) => ((await s.request(nextId("preinit-list"), "tools/list", {})) ? null : "no answer"),
    },
    {
      name: "initialize twice",
      run: async (s) => {
        await s.initialize();
        const again = await s.initialize();
        return again ? stillServing(s, nextId("after-reinit")) : "no answer to a second initialize";
      },
    },
  ];
}

/** A process-ending input: the server answers and carries on, or exits cleanly (code 0) within 10 s. */
async function endingCase(
  run: GroupRun,
  name: string,
  env: Record<string, string>,
  act: (s: RawSession) => Promise<void>,
  exitWaitMs = 10_000,
): Promise<void> {
  const s = RawSession.spawn(`protocol-${name}`, env);
  try {
    await act(s);
    const exited = await s.exitWithin(exitWaitMs);
    const after = s.proc.findings.length;
    let problem: string | null = null;
    if (!exited) {
      problem = (await stillServing(s, nextId("after-ending"))) ? "neither exited nor kept serving" : null;
      if (problem === null) run.tally.note(GROUP, `${name}: answered and kept serving`);
    } else if (s.proc.exit?.code !== 0) problem = `exited with ${JSON.stringify(s.proc.exit)}`;
    else run.tally.note(GROUP, `${name}: exited cleanly (code 0)`);
    if (after > 0) problem = `wrote ${s.proc.findings[0]?.what} (${s.proc.findings[0]?.excerpt})`;
    run.tally.record(GROUP, problem === null ? null : `${name}: ${problem}`);
  } finally {
    await s.proc.stop(2000);
  }
}

/**
 * Malformed JSON-RPC, many-megabyte lines, unknown methods, calls before initialize and a closed
 * stdin: every case is answered per JSON-RPC (or ignored where JSON-RPC gives no reply) with the
 * server still serving, or ends in a clean exit; stdout never carries anything but frames.
 */
export async function brokenProtocol(run: GroupRun): Promise<void> {
  const dir = tempDir("proto");
  const env = cleanEnv({ RESMON_STATE_DIR: dir, RESMON_PORT_FILE: `${dir}/nothing/resmon.port`, HOME: dir });

  const pre = RawSession.spawn("protocol-preinit", env);
  for (const c of preInitCases()) run.tally.record(GROUP, await judgeCase(pre, c));
  for (const c of protocolCases()) run.tally.record(GROUP, await judgeCase(pre, c));
  const stop = await pre.proc.stop(5000);
  run.tally.record(
    GROUP,
    stop.clean
      ? null
      : `closing stdin after the protocol cases: not a clean exit (${JSON.stringify(pre.proc.exit)})`,
  );

  await endingCase(
    run,
    "16 MB line (over the SDK's 10 MiB stdio buffer)",
    env,
    async (s) => {
      await s.initialize();
      s.send({
        id: "sixteen",
        method: "tools/call",
        params: { name: "search_corpus", arguments: { query: "y".repeat(16_000_000) } },
      });
      // Bounded, but generous: reading 16 MB through a pipe on a loaded 2-core machine takes seconds.
      const answer = await s.waitFor(null, 20_000);
      if (answer) run.tally.note(GROUP, `16 MB line: answered ${JSON.stringify(answer.error)}`);
    },
    2000,
  );
  await endingCase(
    run,
    "16 MB of garbage with no newline, then stdin closed",
    env,
    async (s) => {
      await s.initialize();
      s.proc.write("z".repeat(16_000_000));
      s.proc.child.stdin.end();
    },
    20_000,
  );
  await endingCase(run, "stdin closed before initialize", env, async (s) => {
    s.proc.child.stdin.end();
  });
  await endingCase(run, "stdin closed while idle", env, async (s) => {
    await s.initialize();
    s.proc.child.stdin.end();
  });
  await endingCase(run, "stdin closed half-way through a line", env, async (s) => {
    await s.initialize();
    s.proc.write('{"jsonrpc":"2.0","id":"half","method":"tools/ca');
    s.proc.child.stdin.end();
  });

  // Closed stdin while a call is waiting on a backend that never answers.
  const kitDir = tempDir("proto-hang");
  const kit = await kitFor({ stateDir: kitDir });
  kit.setFault("*", { kind: "hang" });
  await endingCase(
    run,
    "stdin closed while a call waits on a hung backend",
    cleanEnv({
      RESMON_STATE_DIR: kitDir,
      RESMON_PORT_FILE: kit.portFile ?? "",
      RESMON_MCP_TIMEOUT_MS: "60000",
    }),
    async (s) => {
      await s.initialize();
      s.send({ id: "hung", method: "tools/call", params: { name: "list_routines", arguments: {} } });
      await new Promise((r) => setTimeout(r, 300));
      s.proc.child.stdin.end();
    },
  );
  await kit.stop();
}

async function judgeCase(s: RawSession, c: Case): Promise<string | null> {
  const before = s.proc.findings.length;
  let problem: string | null;
  try {
    problem = await c.run(s);
  } catch (err) {
    problem = `the case threw: ${err instanceof Error ? err.message : String(err)}`;
  }
  const found = s.proc.findings.slice(before);
  if (problem === null && found.length > 0) problem = `wrote ${found[0]?.what}: ${found[0]?.excerpt}`;
  return problem === null ? null : `${c.name}: ${problem}`;
}
