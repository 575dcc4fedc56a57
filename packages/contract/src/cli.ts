#!/usr/bin/env node
import { contractDocument } from "./document.js";
import { formatRoute } from "./routes.js";
import { TOOLS } from "./table.js";
import { CONTRACT_VERSION, SERVER_NAME } from "./version.js";

/** `resmon-contract` lists the tools; `resmon-contract --json` prints the whole contract as JSON. */
function main(argv: readonly string[]): number {
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write("usage: resmon-contract [--json]\n");
    return 0;
  }
  const unknown = argv.filter((a) => a !== "--json");
  if (unknown.length > 0) {
    process.stderr.write(
      `resmon-contract: unknown argument ${unknown[0]}; usage: resmon-contract [--json]\n`,
    );
    return 2;
  }
  if (argv.includes("--json")) {
    process.stdout.write(`${JSON.stringify(contractDocument(), null, 2)}\n`);
    return 0;
  }
  process.stdout.write(renderTable());
  return 0;
}

function renderTable(): string {
  const rows = TOOLS.map((t) => [
    t.name,
    t.kind,
    String(t.requiresConfirmation),
    t.routes.length ? t.routes.map(formatRoute).join(", ") : "(none: the scan's stored state)",
  ]);
  const header = ["tool", "read/write", "requires_confirmation", "routes"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  // The routes column is last and left unpadded, so long route lists do not widen every line.
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join("  ");
  return [
    `${SERVER_NAME} MCP tool surface, contract ${CONTRACT_VERSION}: ${TOOLS.length} tools`,
    line(header),
    ...rows.map(line),
    "",
  ].join("\n");
}

// A reader that closes early (`resmon-contract --json | head`) is not an error worth a stack trace.
process.stdout.on("error", (err: NodeJS.ErrnoException) => {
  process.exit(err.code === "EPIPE" ? 0 : 1);
});

process.exitCode = main(process.argv.slice(2));
