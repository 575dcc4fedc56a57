import { z } from "zod";
import { readTool } from "../define.js";
import { scanEnvelopeShape, scanIdArg } from "../scan-parts.js";

export const scan_result = readTool({
  name: "scan_result",
  title: "Get scan result",
  description:
    "A scan's envelope from its stored state; never waits on a running call, asks resmon nothing. Once complete: result rows, coverage and the evidence files' paths.",
  input: () =>
    z.strictObject({
      scan_id: scanIdArg(),
      include_markdown: z.boolean().optional(),
      include_bib: z.boolean().optional(),
    }),
  output: () => scanEnvelopeShape(),
  routes: [],
  localState: "it reads the scan's stored state in this server's data dir, never resmon",
  example: { scan_id: "0b7e5c1e-3f3a-4c55-9a51-2f1d7c0e9a10" },
  exampleNeeds: "a scan scan_start started (packages/mcp-server/test/scan-e2e.test.ts runs the sequence)",
  // The largest envelope it can answer: a screening batch of 25 (SCAN_ENVELOPE_BUDGET in the bench).
  budget: 2_500,
});
