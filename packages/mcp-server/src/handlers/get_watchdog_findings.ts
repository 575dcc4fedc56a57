import type { Handler } from "../context.js";
import { answerOf } from "../shape/answer.js";
import { requireRecord } from "../shape/values.js";

const NOT_APPLIED =
  "include_muted was not applied: resmon's watchdog route takes no such option, so this is the default answer (muted findings are counted in counts.muted, not listed).";

/** Findings passed through untouched, with the watchdog's own list of what it cannot judge. */
export const get_watchdog_findings: Handler<"get_watchdog_findings"> = async (args, { backend }) => {
  const body = requireRecord(await backend.call((c) => c.GET("/api/watchdog")), "a watchdog report");
  // false is what resmon answers anyway; only true asks for something the route cannot do.
  if (args.include_muted !== true) return answerOf("get_watchdog_findings", body);
  return answerOf("get_watchdog_findings", {
    ...body,
    include_muted_applied: false,
    not_applied: [{ argument: "include_muted", why: NOT_APPLIED }],
  });
};
