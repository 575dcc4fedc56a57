/**
 * `pnpm demo`: start the stand-in resmon (testkit, demo seed) in a temporary state directory, run a
 * scripted tour through the real MCP server over stdio (reads, a short literature scan, one
 * confirm-gated write, a read-only refusal, doctor, a raw answer), then stop and clean up. `--serve` keeps the stand-in up afterwards
 * and prints how to point a harness at it, until Ctrl-C. Ctrl-C exits 0 at any point. The token is
 * never printed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { startTestkit, type Testkit } from "@resmon/testkit";
import { harnessHelp } from "./harness.js";
import { out } from "./show.js";
import { onStop, releaseStop } from "./stop.js";
import { type Server, tour } from "./tour.js";

const serve = process.argv.includes("--serve");

/** The bin the package ships (package.json "bin"), so the demo runs what a harness would run. */
function serverPackage(): Server {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve("@resmon/mcp-server/package.json");
  const { name, version, bin } = require(manifest) as {
    name: string;
    version: string;
    bin?: string | Record<string, string>;
  };
  const relative = typeof bin === "string" ? bin : (bin?.["resmon-mcp"] ?? "dist/bin/cli.js");
  return { bin: join(dirname(manifest), relative), packageName: name, packageVersion: version };
}

async function main(): Promise<void> {
  const server = serverPackage();
  const stateDir = mkdtempSync(join(tmpdir(), "resmon-demo-"));
  let kit: Testkit | undefined;
  let stopping = false;
  const stop = async (code: number, why?: string) => {
    if (stopping) return;
    stopping = true;
    releaseStop();
    await kit?.stop().catch(() => undefined);
    rmSync(stateDir, { recursive: true, force: true });
    if (why) out(why);
    process.exit(code);
  };
  onStop(() => void stop(0, "\nStopped: the stand-in is down and its state directory is removed."));

  const started = Date.now();
  kit = await startTestkit({ stateDir, seed: "demo" });
  out(
    `resmon stand-in (testkit, demo seed) on 127.0.0.1:${kit.port}, ready in ${Date.now() - started} ms; state dir ${stateDir}`,
  );
  try {
    await tour(kit, server);
  } catch (err) {
    process.stderr.write(`demo failed: ${err instanceof Error ? err.message : String(err)}\n`);
    await stop(1);
    return;
  }
  if (!serve) {
    out();
    out("Tour done. `pnpm demo --serve` keeps the stand-in running for a harness to connect to.");
    await stop(0);
    return;
  }
  harnessHelp(kit.port, stateDir, server.bin);
  out();
  out("Serving until Ctrl-C.");
}

void main();
