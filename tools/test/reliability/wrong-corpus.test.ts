/**
 * Never the wrong corpus: a decoy stand-in on 127.0.0.1:8742 (resmon's historical default port),
 * its token file in the very state directory the server reads, so a fallback would succeed, while
 * the named resmon is down, its port file is missing, a dead port is named, or nothing is named.
 * Every call is backend_unavailable and the decoy receives zero requests.
 */
import { existsSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { cleanEnv, type Testkit } from "@resmon/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VALID_CALLS, WRITE_CALLS } from "../../src/reliability/calls.js";
import { kitFor, tempDir } from "../../src/reliability/context.js";
import { accountForEveryByte } from "../../src/reliability/lifecycle.js";
import { callTool, describe as describeOutcome } from "../../src/reliability/outcome.js";
import { connectClient, SERVER_CLI } from "../../src/reliability/proc.js";
import { note } from "../../src/reliability/record.js";

/** resmon's historical default port: a server that guessed would find the decoy here. */
const HISTORICAL_PORT = 8742;

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

const CALLS = [...VALID_CALLS, ...WRITE_CALLS];
const dir = tempDir("wrong");

interface Scenario {
  name: string;
  env: () => Promise<Record<string, string>>;
  /** Call the named resmon once, then take it down: the port file is left behind, stale. */
  warm?: boolean;
}

const SCENARIOS: Scenario[] = [
  {
    name: "named resmon went down mid-session (stale port file)",
    env: async () => ({ RESMON_PORT_FILE: join(dir, "named", "resmon.port"), RESMON_STATE_DIR: dir }),
    warm: true,
  },
  {
    name: "named port file missing",
    env: async () => ({ RESMON_PORT_FILE: join(dir, "gone", "resmon.port"), RESMON_STATE_DIR: dir }),
  },
  {
    name: "named port dead",
    env: async () => ({ RESMON_PORT: String(await deadPort()), RESMON_STATE_DIR: dir }),
  },
  { name: "nothing named", env: async () => ({ RESMON_STATE_DIR: dir, HOME: dir }) },
];

describe.skipIf(!existsSync(SERVER_CLI))(
  `never the wrong corpus (decoy on 127.0.0.1:${HISTORICAL_PORT})`,
  () => {
    let decoy: Testkit;
    let named: Testkit;
    beforeAll(async () => {
      // If 8742 is busy this group cannot prove anything: it fails (every case below) rather than skip.
      if (!(await portFree(HISTORICAL_PORT)))
        throw new Error(
          `127.0.0.1:${HISTORICAL_PORT} is busy on this machine, so the decoy cannot listen there; free it and rerun`,
        );
      decoy = await kitFor({ stateDir: dir, port: HISTORICAL_PORT, portFile: null });
      named = await kitFor({ stateDir: dir, portFile: join(dir, "named", "resmon.port") });
    }, 30_000);
    afterAll(async () => {
      await decoy?.stop();
      await named?.stop();
      rmSync(join(dir, "named"), { recursive: true, force: true });
    });

    describe.for(SCENARIOS)("$name", (scenario) => {
      let client: Client;
      beforeAll(async () => {
        ({ client } = await connectClient(
          `wrong-${scenario.name}`,
          // The deadline is not what is tested here: a first call that waits while the SDK path loads
          // on a loaded machine must still reach discovery (2 s did not, once).
          cleanEnv({ HOME: dir, RESMON_MCP_TIMEOUT_MS: "10000", ...(await scenario.env()) }),
        ));
        await client.listTools();
        if (scenario.warm) {
          const warm = await callTool(client, "health", {}, 10_000);
          if (warm.kind !== "success")
            throw new Error(`warm-up call to the named resmon failed: ${describeOutcome(warm)}`);
          await named.crash();
        }
      }, 30_000);
      afterAll(async () => client?.close());

      it.for(CALLS.map(([tool, args]) => [tool, args] as const))(
        "%s: backend_unavailable, no request to the decoy",
        { timeout: 60_000 },
        async ([tool, args]) => {
          const before = decoy.requests.length;
          const got = await callTool(client, tool, args, 30_000);
          expect(decoy.requests.length - before, `requests the decoy on ${HISTORICAL_PORT} received`).toBe(0);
          expect(got.kind === "error" && got.code === "backend_unavailable", describeOutcome(got)).toBe(true);
          if (got.kind === "error" && scenario.name === "nothing named")
            expect(got.body.no_port_named).toBe(true);
        },
      );
    });

    it("the decoy received no request in all", () => {
      expect(decoy.requests.length).toBe(0);
    });

    // So the zero above is a measurement: naming 8742 outright does reach the decoy.
    it(`control: RESMON_PORT=${HISTORICAL_PORT} named outright reaches the decoy`, async (ctx) => {
      const { client } = await connectClient(
        "wrong-control",
        cleanEnv({ HOME: dir, RESMON_PORT: String(HISTORICAL_PORT), RESMON_STATE_DIR: dir }),
      );
      const control = await callTool(client, "health", {}, 10_000);
      await client.close();
      note(
        ctx,
        `${SCENARIOS.length} scenarios × ${CALLS.length} calls, 0 decoy requests; the control reached it`,
      );
      expect(describeOutcome(control)).toBe("success");
      expect(decoy.requests.length).toBeGreaterThan(0);
    }, 30_000);

    accountForEveryByte();
  },
);
