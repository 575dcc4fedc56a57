#!/usr/bin/env node
import { startTestkit } from "./testkit.js";

const USAGE =
  "usage: resmon-testkit serve --state-dir DIR [--port N|0] [--port-file PATH] [--seed demo|small]";

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command !== "serve") fail(command ? `unknown command: ${command}` : "no command given");
  const opts: Record<string, string> = {};
  for (let i = 0; i < rest.length; i++) {
    const flag = rest[i] ?? "";
    const value = rest[i + 1];
    if (!["--state-dir", "--port", "--port-file", "--seed"].includes(flag) || value === undefined)
      fail(`unexpected argument: ${flag}`);
    opts[flag] = value;
    i++;
  }
  const stateDir = opts["--state-dir"];
  if (!stateDir) fail("--state-dir is required");
  const port = opts["--port"] === undefined ? 0 : Number(opts["--port"]);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`not a port: ${opts["--port"]}`);
  const seed = opts["--seed"] ?? "demo";
  if (seed !== "demo" && seed !== "small") fail(`unknown seed: ${seed}`);
  const kit = await startTestkit({ stateDir, port, portFile: opts["--port-file"], seed });
  process.stdout.write(
    `${JSON.stringify({ port: kit.port, state_dir: kit.stateDir, port_file: kit.portFile, runtime_id: kit.runtimeId })}\n`,
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
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`resmon-testkit: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
