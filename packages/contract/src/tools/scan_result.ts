import { z } from "zod";
import { readHints, readTool } from "../define.js";
import { scanEnvelopeShape, scanIdArg } from "../scan-parts.js";

export const scan_result = readTool({
  name: "scan_result",
  title: "Read a literature scan",
  description:
    "A scan's current envelope from its stored state, without waiting on a running call: phase, next_action, counts; once complete, the result rows, coverage and the paths of evidence.json/md/bib. Changes nothing and asks resmon nothing. include_markdown adds evidence.md's text.",
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
