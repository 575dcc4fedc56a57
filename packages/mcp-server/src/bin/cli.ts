#!/usr/bin/env node
import { helpLines, readConfig, startupLines } from "../config.js";
import { log } from "../log.js";
import { PACKAGE_VERSION } from "../version.js";
import { stopSignals } from "./stop-signals.js";
import { applyV8Settings } from "./v8-settings.js";

/**
 * The bin: the SDK's own stdio transport and its dual-era entry serve the session (serve.ts). The
 * server side is imported once V8 is set (v8-settings.ts), so the SDK and zod load under its settings;
 * the tool side once tools/list is answered (session-host.ts).
 * stdout carries only JSON-RPC frames; everything else goes to stderr.
 */
async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes("--version") || argv.includes("-v")) {
    process.stdout.write(`${PACKAGE_VERSION}\n`);
    return;
  }
  if (argv[0] === "doctor") {
    const { runDoctor } = await import("./doctor.js");
    const writes = argv.includes("--writes");
    process.exitCode = await runDoctor({ tools: writes || argv.includes("--tools"), writes });
    return;
  }
  if (argv.includes("--help") || argv.includes("-h")) {
    const { WRITE_TOOLS } = await import("@resmon/mcp-contract");
    process.stderr.write(
      "resmon-mcp: a stdio MCP server for a running resmon.\n" +
        `Environment:\n${helpLines().join("\n")}\n` +
        "`resmon-mcp doctor` prints what discovery sees and what to do; exit 0 only when a resmon answered.\n" +
        "`resmon-mcp doctor --tools` also calls every read tool and checks each answer against the contract;\n" +
        `add --writes to call the ${WRITE_TOOLS.length} writes too (it says first what it will create or start).\n`,
    );
    return;
  }
  const config = readConfig();
  for (const line of startupLines(config)) log(line);
  applyV8Settings();
  const [{ serve }, { sessionHost }, { StdioServerTransport }, { stdinLines, MAX_LINE }] = await Promise.all([
    import("../serve.js"),
    import("../session-host.js"),
    import("@modelcontextprotocol/server/stdio"),
    import("../stdin-lines.js"),
  ]);
  // The tool side, loaded after tools/list (session-host.ts, tool-side.ts).
  const host = sessionHost(config.readOnly, async () => (await import("./tool-side.js")).startToolSide());
  // What the SDK's reader would drop silently is answered (stdin-lines.ts); the rest it reads itself.
  const input = process.stdin.pipe(
    stdinLines((message) => void transport.send(message).catch(() => undefined)),
  );
  const transport = new StdioServerTransport(input, process.stdout, { maxBufferSize: 4 * MAX_LINE });
  const entry = serve(host, transport, {
    input,
    output: process.stdout,
    // stdin ended (the harness went away): the SDK closed the session, and the process ends with it.
    closed: () => void host.close().finally(() => process.exit()),
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
