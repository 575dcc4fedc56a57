import { z } from "zod";
import { readHints, readTool } from "../define.js";
import { scanEnvelopeShape, scanIdArg } from "../scan-parts.js";

export const scan_result = readTool({
  name: "scan_result",
  title: "Get scan result",
  description:
    "A scan's envelope from its stored state; never waits on a running call, asks resmon nothing. Once complete: result rows, coverage and the evidence files' paths. include_markdown adds evidence.md.",
  kind: "read",
  requiresConfirmation: false,
  annotations: readHints(false),
  input: z.strictObject({
    scan_id: scanIdArg(),
    include_markdown: z.boolean().optional().describe("Add evidence.md's text (default false)."),
  }),
  output: scanEnvelopeShape(),
  routes: [],
});
