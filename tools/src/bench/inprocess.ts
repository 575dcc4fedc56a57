/**
 * The server's own work per call, without the stdio hop and without scheduling noise between two
 * processes: (1) a tool call through createResmonTools in this process (validation, handler,
 * output check, scrubbing, the same API client) minus the same request made directly, interleaved;
 * (2) the CPU time the stdio server process spent per call, from /proc (user + system).
 * The stand-in runs in its own process (standin.ts): inside this one, its 25 ms of search work and
 * garbage landed on whichever path came next, and the overhead of search_corpus came out at
 * −4.8 ms. The two paths also take turns going first, so what one leaves the other pays alike.
 */
import { createResmonClient } from "@resmon/api-client";
import { createResmonTools } from "@resmon/mcp-server";
import { CASES } from "./percall.js";
import type { BenchBackend } from "./standin.js";
import { median, msSince, p99, pairedOverhead } from "./stats.js";

export interface InProcess {
  label: string;
  calls: number;
  overhead: { median: number; p99: number };
  direct: { median: number; p99: number };
}

export async function measureInProcess(kit: BenchBackend, callsPerCase: number): Promise<InProcess[]> {
  const tools = createResmonTools({
    env: { RESMON_PORT_FILE: kit.portFile ?? "", RESMON_STATE_DIR: kit.stateDir },
  });
  const client = createResmonClient({ port: kit.port, token: kit.token });
  const out: InProcess[] = [];
  try {
    for (const c of CASES) {
      const calls = Math.ceil(callsPerCase * c.share);
      for (let i = 0; i < Math.ceil(100 * c.share); i += 1) {
        const outcome = await tools.call(c.tool, c.args);
        if (!outcome.ok) throw new Error(`${c.tool} failed in process: ${outcome.error.error}`);
        await c.direct(client);
      }
      const tool: number[] = [];
      const direct: number[] = [];
      const timeDirect = async () => {
        const start = process.hrtime.bigint();
        await c.direct(client);
        direct.push(msSince(start));
      };
      const timeTool = async () => {
        const start = process.hrtime.bigint();
        await tools.call(c.tool, c.args);
        tool.push(msSince(start));
      };
      for (let i = 0; i < calls; i += 1) {
        if (i % 2 === 0) {
          await timeDirect();
          await timeTool();
        } else {
          await timeTool();
          await timeDirect();
        }
        if (i % 1000 === 0) kit.clearRequests();
      }
      out.push({
        label: c.label,
        calls,
        overhead: pairedOverhead(tool, direct),
        direct: { median: median(direct), p99: p99(direct) },
      });
    }
  } finally {
    await client.close();
    await tools.close();
  }
  return out;
}
