#!/usr/bin/env node
import { runDoctor } from "./doctor.js";
import { log } from "./log.js";
import { scrub } from "./scrub.js";
import { createStdioTransport } from "./sdk.js";
import { createServer } from "./server.js";
import { PACKAGE_VERSION } from "./version.js";

/** The bin: stdout carries only JSON-RPC frames; everything else goes to stderr. */
async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes("--version") || argv.includes("-v")) {
    process.stdout.write(`${PACKAGE_VERSION}\n`);
    return;
  }
  if (argv[0] === "doctor") {
    // A static import: doctor shares every dependency with the server, and a dynamic import makes
    // the bundler wrap the shared modules (zod among them) in lazy initialisers that break its order.
    process.exitCode = await runDoctor();
    return;
  }
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stderr.write(
      "resmon-mcp: a stdio MCP server for a running resmon.\n" +
        "Environment: RESMON_PORT or RESMON_PORT_FILE (which resmon), RESMON_STATE_DIR (where its token is),\n" +
        "RESMON_MCP_READ_ONLY=1 (reads only), RESMON_MCP_TIMEOUT_MS (per request, default 30000).\n" +
        "`resmon-mcp doctor` prints what discovery sees and what to do; exit 0 only when a resmon answered.\n",
    );
    return;
  }
  const { server } = createServer();
  const shutdown = () => {
    server.close().finally(() => process.exit(0));
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
  process.stdin.on("end", shutdown);
  await server.connect(createStdioTransport(scrub));
  log("ready on stdio");
}

process.on("uncaughtException", (err) => log(`unexpected: ${err.name}`));
process.on("unhandledRejection", () => log("unexpected: unhandled rejection"));

main().catch((err: unknown) => {
  log(`could not start: ${err instanceof Error ? err.name : "error"}`);
  process.exit(1);
});
