import { rmSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import type { Testkit } from "@resmon/testkit";
import { VALID_CALLS, WRITE_CALLS } from "../calls.js";
import { type GroupRun, kitFor, tempDir } from "../context.js";
import { callTool, describe } from "../outcome.js";
import { cleanEnv, connectClient } from "../proc.js";
import { GROUP_TITLES } from "../titles.js";

const GROUP = GROUP_TITLES["wrong-corpus"];
/** resmon's historical default port: a server that guessed would find the decoy here. */
export const HISTORICAL_PORT = 8742;

async function portFree(port: number): Promise<boolean> {
  const probe = createServer();
  return new Promise((resolve) => {
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

/** A port nothing listens on (bound, then released). */
async function deadPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return typeof address === "object" && address ? address.port : 1;
}

/**
 * A decoy stand-in on 127.0.0.1:8742 — its token file in the very state directory the server reads,
 * so a fallback would succeed — while the named resmon is down, its port file is missing, a dead
 * port is named, or nothing is named at all. Every call is backend_unavailable and the decoy
 * receives zero requests.
 */
export async function wrongCorpus({ tally }: GroupRun): Promise<void> {
  if (!(await portFree(HISTORICAL_PORT))) {
    tally.record(
      GROUP,
      `127.0.0.1:${HISTORICAL_PORT} is busy on this machine, so the decoy cannot listen there: this group cannot prove anything and FAILS rather than skip (free the port and rerun)`,
    );
    return;
  }
  const dir = tempDir("wrong");
  const decoy = await kitFor({ stateDir: dir, port: HISTORICAL_PORT, portFile: null });
  const named = await kitFor({ stateDir: dir, portFile: join(dir, "named", "resmon.port") });
  const calls = [...VALID_CALLS, ...WRITE_CALLS];
  try {
    const scenarios: {
      name: string;
      env: Record<string, string>;
      before?: () => Promise<void>;
      warm?: boolean;
    }[] = [
      {
        name: "named resmon went down mid-session (stale port file)",
        env: { RESMON_PORT_FILE: named.portFile ?? "", RESMON_STATE_DIR: dir },
        warm: true,
      },
      {
        name: "named port file missing",
        env: { RESMON_PORT_FILE: join(dir, "gone", "resmon.port"), RESMON_STATE_DIR: dir },
      },
      { name: "named port dead", env: { RESMON_PORT: String(await deadPort()), RESMON_STATE_DIR: dir } },
      { name: "nothing named", env: { RESMON_STATE_DIR: dir, HOME: dir } },
    ];
    for (const scenario of scenarios) {
      const { client } = await connectClient(
        `wrong-${scenario.name}`,
        cleanEnv({ HOME: dir, RESMON_MCP_TIMEOUT_MS: "2000", ...scenario.env }),
      );
      await client.listTools();
      if (scenario.warm) {
        const warm = await callTool(client, "health", {}, 10_000);
        if (warm.kind !== "success")
          tally.record(GROUP, `${scenario.name}: warm-up call to the named resmon failed: ${describe(warm)}`);
        await (named as Testkit).crash();
      }
      for (const [tool, args] of calls) {
        const before = decoy.requests.length;
        const got = await callTool(client, tool, args, 10_000);
        const sent = decoy.requests.length - before;
        let problem: string | null = null;
        if (got.kind !== "error" || got.code !== "backend_unavailable")
          problem = `expected backend_unavailable, got ${describe(got)}`;
        if (sent > 0) problem = `the decoy on ${HISTORICAL_PORT} received ${sent} request(s)`;
        if (got.kind === "error" && scenario.name === "nothing named" && got.body.no_port_named !== true) {
          problem = "no_port_named is not true";
        }
        tally.record(GROUP, problem === null ? null : `${scenario.name} × ${tool}: ${problem}`);
      }
      await client.close();
    }
    tally.record(
      GROUP,
      decoy.requests.length === 0 ? null : `the decoy received ${decoy.requests.length} request(s) in all`,
    );
    // Control: naming 8742 outright does reach the decoy, so the zero above is a measurement.
    const { client } = await connectClient(
      "wrong-control",
      cleanEnv({ HOME: dir, RESMON_PORT: String(HISTORICAL_PORT), RESMON_STATE_DIR: dir }),
    );
    const control = await callTool(client, "health", {}, 10_000);
    await client.close();
    tally.record(
      GROUP,
      control.kind === "success" && decoy.requests.length > 0
        ? null
        : `control: RESMON_PORT=${HISTORICAL_PORT} should reach the decoy, got ${describe(control)} with ${decoy.requests.length} decoy request(s)`,
    );
    tally.note(
      GROUP,
      `decoy stand-in on 127.0.0.1:${HISTORICAL_PORT} with its token beside the server's; 4 scenarios × ${calls.length} calls, 0 decoy requests; control (RESMON_PORT=${HISTORICAL_PORT} named outright) reached it`,
    );
  } finally {
    await decoy.stop();
    await named.stop();
    rmSync(join(dir, "named"), { recursive: true, force: true });
  }
}
