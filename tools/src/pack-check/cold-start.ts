/** Check 7: a cold `npx` start from the tarball, spawn to tools/list, against the Codex snippet's timeout. */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { TOOL_NAMES } from "@resmon/mcp-contract";
import type { Testkit } from "@resmon/testkit";
import { kitEnv, startAndList } from "./launch.js";
import { record } from "./report.js";
import { cleanEnv } from "./run.js";

const COLD_RUNS = 3;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}

export async function coldStarts(
  work: string,
  tgz: string,
  app: string,
  kit: Testkit,
  codexTimeout?: number,
): Promise<void> {
  const cold: number[] = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    const dir = join(work, `cold-${i}`);
    await mkdir(dir, { recursive: true });
    const env = cleanEnv({ npm_config_cache: join(dir, "npm-cache"), ...kitEnv(kit) });
    try {
      const r = await startAndList("npx", ["-y", "--package", tgz, "resmon-mcp"], env, dir, 120_000);
      if (r.tools.length === TOOL_NAMES.length) cold.push(r.ms);
    } catch {
      // counted below as a missing run
    }
  }
  const warm: number[] = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    try {
      const r = await startAndList("npx", ["resmon-mcp"], cleanEnv(kitEnv(kit)), app, 60_000);
      warm.push(r.ms);
    } catch {
      // counted below
    }
  }
  const fmt = (xs: number[]) => xs.map((x) => `${(x / 1000).toFixed(2)} s`).join(", ");
  record(
    `cold npx start from the tarball (empty npm cache, spawn to tools/list), ${COLD_RUNS} runs`,
    cold.length === COLD_RUNS,
    `${fmt(cold)}; median ${(median(cold) / 1000).toFixed(2)} s`,
  );
  record(
    "installed npx start (spawn to tools/list)",
    warm.length === COLD_RUNS,
    `${fmt(warm)}; median ${(median(warm) / 1000).toFixed(2)} s`,
  );
  if (codexTimeout !== undefined && cold.length > 0) {
    const worst = Math.max(...cold) / 1000;
    record(
      "Codex startup_timeout_sec leaves room for a cold start",
      worst * 5 <= codexTimeout,
      `${codexTimeout} s vs worst cold start ${worst.toFixed(2)} s (required: at least 5x, for a registry download)`,
    );
  }
}
