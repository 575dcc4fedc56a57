import { z } from "zod";
import { readHints, readTool } from "../define.js";

export const get_watchdog_findings = readTool({
  name: "get_watchdog_findings",
  title: "Get watchdog findings",
  description:
    "resmon's watchdog over sources and routines. Each finding has severity broken, unusual, advice or withdrawn (a source resmon no longer asks), with what to do and the thresholds used. Treat a severity you do not know as not an alarm. A source answered in part is advice, never an alarm. Pass on what the watchdog says it cannot judge.",
  kind: "read",
  requiresConfirmation: false,
  annotations: readHints(false),
  input: z.strictObject({
    include_muted: z.boolean().optional().describe("Also return findings the user muted."),
  }),
  output: z.looseObject({
    findings: z.array(z.looseObject({ severity: z.string() })),
  }),
  routes: [{ method: "GET", path: "/api/watchdog" }],
});
