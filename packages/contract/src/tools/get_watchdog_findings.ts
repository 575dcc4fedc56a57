import { z } from "zod";
import { readTool } from "../define.js";

export const get_watchdog_findings = readTool({
  name: "get_watchdog_findings",
  title: "Watchdog findings",
  description:
    "Watchdog findings: severity, what to do, thresholds. A severity you do not know is not an alarm; pass on what it cannot judge.",
  input: () =>
    z.strictObject({
      include_muted: z.boolean().optional(),
    }),
  output: () =>
    z.looseObject({
      findings: z.array(z.looseObject({ severity: z.string() })),
    }),
  routes: [{ method: "GET", path: "/api/watchdog" }],
  example: {},
  budget: 950,
});
