#!/usr/bin/env node
import { helpLines, readConfig, startupLines } from "../config.js";
import { WRITE_TOOL_COUNT } from "../generated/identity.js";
import { log } from "../log.js";
import { startStdio } from "../protocol/stdio.js";
import { PACKAGE_VERSION } from "../version.js";
import { stopSignals } from "./stop-signals.js";

/**
 * Only the stdio entry and its front are imported statically: the SDK, zod, the contract's schemas
 * and the HTTP client load when first needed (sdk-side.ts), so a harness gets its opening answers at
 * about the cost of starting node (README, Performance). The published bin is this file bundled as
 * CommonJS (dist/resmon-mcp.cjs): on Node 20 an ES module entry costs ~7 ms more to start, because
 * node sets up its ES module loader first. The SDK side is an ES module, loaded by import() at the
 * hand-over; its path is computed, so the bundler leaves that import alone (build.mjs).
 */
const sdkSide = (): Promise<typeof import("./sdk-side.js")> =>
  import(new URL("./sdk-side.js", import.meta.url).href);

/** The bin: stdout carries only JSON-RPC frames; everything else goes to stderr. */
async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes("--version") || argv.includes("-v")) {
    process.stdout.write(`${PACKAGE_VERSION}\n`);
    return;
  }
  if (argv[0] === "doctor") {
    const { runDoctor } = await sdkSide();
    const writes = argv.includes("--writes");
    process.exitCode = await runDoctor({ tools: writes || argv.includes("--tools"), writes });
    return;
  }
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stderr.write(
      "resmon-mcp: a stdio MCP server for a running resmon.\n" +
        `Environment:\n${helpLines().join("\n")}\n` +
        "`resmon-mcp doctor` prints what discovery sees and what to do; exit 0 only when a resmon answered.\n" +
        "`resmon-mcp doctor --tools` also calls every read tool and checks each answer against the contract;\n" +
        `add --writes to call the ${WRITE_TOOL_COUNT} writes too (it says first what it will create or start).\n`,
    );
    return;
  }
  const config = readConfig();
  for (const line of startupLines(config)) log(line);
  const entry = startStdio({
    readOnly: config.readOnly,
    input: process.stdin,
    output: process.stdout,
    load: () =>
      sdkSide().then(
        (side) => side.loadServer(),
        (err: unknown) => {
          log(`could not start: ${err instanceof Error ? err.name : "error"}`);
          throw err;
        },
      ),
    onEnd: () => process.exit(),
  });
  const shutdown = () => {
    entry.close().finally(() => process.exit(0));
  };
  for (const signal of stopSignals(process.platform)) process.on(signal, shutdown);
  log("ready on stdio");
}

// A closed stdout or stderr (the harness went away, or `resmon-mcp doctor | head`) ends the process:
// reporting it on a closed stderr would only raise another EPIPE, and loop.
const isBrokenPipe = (err: unknown) => (err as NodeJS.ErrnoException | undefined)?.code === "EPIPE";
process.stderr.on("error", (err) => {
  if (isBrokenPipe(err)) process.exit(process.exitCode ?? 0);
});
// Any other stdout error (ENOBUFS, EIO…) has lost a frame the harness waits for: going on would
// leave it waiting for ever, so it ends the process, with one line on stderr saying why.
process.stdout.on("error", (err: NodeJS.ErrnoException) => {
  if (isBrokenPipe(err)) process.exit(process.exitCode ?? 0);
  log(`stdout failed (${err.code ?? err.name}): stopping, since an answer could not be written`);
  process.exit(1);
});
process.on("uncaughtException", (err) => {
  if (isBrokenPipe(err)) process.exit(process.exitCode ?? 0);
  log(`unexpected: ${err.name}`);
});
process.on("unhandledRejection", () => log("unexpected: unhandled rejection"));

main().catch((err: unknown) => {
  log(`could not start: ${err instanceof Error ? err.name : "error"}`);
  process.exit(1);
});
