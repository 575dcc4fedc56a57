#!/usr/bin/env node
import { createInterface } from "node:readline";
import { applyControl, CONTROL_USAGE } from "./control.js";
import { isPublicBuild, releaseNamed } from "./releases.js";
import { startTestkit } from "./testkit.js";

const USAGE = [
  "usage: resmon-testkit serve --state-dir DIR [--port N|0] [--port-file PATH] [--seed demo|small | --corpus FILE] [--as 1.6|1.7|2.3 [--unguarded]]",
  "         [--max-concurrent N] [--queue-limit N] [--run-duration-ms N]",
  `controls, one per line on stdin, each answered by one JSON line: ${CONTROL_USAGE.join(" | ")}`,
].join("\n");

const FLAGS = [
  "--state-dir",
  "--port",
  "--port-file",
  "--seed",
  "--corpus",
  "--as",
  "--max-concurrent",
  "--queue-limit",
  "--run-duration-ms",
];
const ADMISSION_FLAGS = {
  "--max-concurrent": ["maxConcurrent", 1],
  "--queue-limit": ["queueLimit", 0],
  "--run-duration-ms": ["runDurationMs", 0],
} as const;

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command !== "serve") fail(command ? `unknown command: ${command}` : "no command given");
  const opts: Record<string, string> = {};
  // The one flag without a value: play the public 1.6/1.7 build, no token guard (testkit.ts `unguarded`).
  const unguarded = rest.includes("--unguarded");
  const args = rest.filter((a) => a !== "--unguarded");
  for (let i = 0; i < args.length; i++) {
    const flag = args[i] ?? "";
    const value = args[i + 1];
    if (!FLAGS.includes(flag) || value === undefined) fail(`unexpected argument: ${flag}`);
    opts[flag] = value;
    i++;
  }
  const stateDir = opts["--state-dir"];
  if (!stateDir) fail("--state-dir is required");
  const port = opts["--port"] === undefined ? 0 : Number(opts["--port"]);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`not a port: ${opts["--port"]}`);
  const seed = opts["--seed"] ?? "demo";
  if (seed !== "demo" && seed !== "small") fail(`unknown seed: ${seed}`);
  const admission: { maxConcurrent?: number; queueLimit?: number; runDurationMs?: number } = {};
  for (const [flag, [key, min]] of Object.entries(ADMISSION_FLAGS)) {
    const text = opts[flag];
    if (text === undefined) continue;
    const n = Number(text);
    if (!/^\d+$/.test(text) || n < min) fail(`not a count for ${flag}: ${text}`);
    admission[key] = n;
  }
  const as = opts["--as"];
  const release = as === undefined ? undefined : releaseNamed(as);
  if (as !== undefined && !release) fail(`the testkit plays resmon 1.6, 1.7 and 2.3, not ${as}`);
  if (unguarded && (release === undefined || !isPublicBuild(release))) {
    fail("--unguarded plays the public 1.6/1.7 build: name --as 1.6 or --as 1.7 (2.3 always guards)");
  }
  const corpus = opts["--corpus"];
  if (corpus !== undefined && opts["--seed"] !== undefined)
    fail("--corpus replaces the seed's papers: name one");
  const kit = await startTestkit({
    stateDir,
    port,
    portFile: opts["--port-file"],
    seed,
    ...(corpus !== undefined ? { corpus } : {}),
    ...(as ? { as } : {}),
    ...(unguarded ? { unguarded } : {}),
  });
  kit.setAdmission(admission);
  process.stdout.write(
    `${JSON.stringify({ port: kit.port, state_dir: kit.stateDir, port_file: kit.portFile, runtime_id: kit.runtimeId, version: kit.release.version })}\n`,
  );
  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    kit.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
  // Controls are applied one at a time, in the order they arrive; stdin ending changes nothing.
  let pending = Promise.resolve();
  createInterface({ input: process.stdin }).on("line", (line) => {
    if (!line.trim()) return;
    pending = pending
      .then(() => applyControl(kit, line))
      .catch((err: unknown) => ({
        control: line.trim().split(/\s+/)[0],
        ok: false,
        error: err instanceof Error ? err.message : String(err),
      }))
      .then((answer) => {
        process.stdout.write(`${JSON.stringify(answer)}\n`);
      });
  });
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`resmon-testkit: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
