/**
 * The stand-in's own cold start: `resmon-testkit serve` spawned → its one ready line (port bound,
 * seed built, token and port files written), per seed, interleaved with the bare-node floor.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { SeedName } from "@resmon/testkit";
import { floorOnce } from "./coldstart.js";
import { median, msSince } from "./stats.js";

function testkitCli(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve("@resmon/testkit/package.json")), "dist", "cli.js");
}

function serveOnce(seed: SeedName, env: Record<string, string>): Promise<number> {
  const stateDir = mkdtempSync(join(tmpdir(), "resmon-bench-standin-"));
  return new Promise<number>((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, [testkitCli(), "serve", "--state-dir", stateDir, "--seed", seed], {
      stdio: ["ignore", "pipe", "ignore"],
      env,
    });
    let out = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      out += chunk;
      if (out.includes("\n")) {
        resolve(msSince(start));
        child.kill("SIGTERM");
      }
    });
    child.on("error", reject);
    child.on("exit", () => {
      if (!out.includes("\n"))
        reject(new Error(`resmon-testkit serve --seed ${seed} exited before it was ready`));
    });
  }).finally(() => setTimeout(() => rmSync(stateDir, { recursive: true, force: true }), 1_000).unref());
}

export async function measureStandinStart(
  seeds: SeedName[],
  env: Record<string, string>,
  rounds: number,
): Promise<{ floor: number; seeds: Record<string, number> }> {
  const floor: number[] = [];
  const times: Record<string, number[]> = Object.fromEntries(seeds.map((s) => [s, []]));
  for (let i = 0; i < rounds; i++) {
    floor.push(await floorOnce(env));
    for (const seed of seeds) times[seed]?.push(await serveOnce(seed, env));
  }
  return {
    floor: median(floor),
    seeds: Object.fromEntries(seeds.map((s) => [s, median(times[s] ?? [])])),
  };
}
