import { ROUTES } from "./routes.js";
import { TOOLS, type ToolName } from "./table.js";
import type { RouteRef } from "./types.js";

/**
 * What became of a write tool's write when the call failed (contract 1.4): every error a write tool
 * answers carries it in `detail`, so a harness that retries knows whether it would do the write twice.
 * - `not_sent`: no request that changes resmon left the server; trying again is safe.
 * - `unknown`: a write request was sent and no answer came back (the call's time ran out, the
 *   connection dropped, or the call was cancelled), or resmon answered with a server error: it may
 *   have done it. `check_with` names the read that shows whether it did, to call before any retry.
 * - `refused`: resmon answered the write with a refusal (4xx): it did not do it.
 * - `done`: resmon answered that it did the write; what failed came after it (a read-back).
 */
export type WriteOutcome = "not_sent" | "unknown" | "refused" | "done";

export interface WriteOutcomeDetail {
  /** Whether a request that changes resmon left the server in this call. */
  sent: boolean;
  outcome: WriteOutcome;
  /** With `unknown`: the read that shows whether the write happened. */
  check_with?: ToolName;
}

/**
 * For each write tool, the read that shows whether a write whose outcome is unknown happened, and
 * how to read it. A test holds this to the table's write rows.
 */
export const WRITE_CHECKS = {
  run_sweep: {
    tool: "list_executions",
    how: "list_executions shows whether a sweep started at that time (newest first)",
  },
  create_routine: {
    tool: "list_routines",
    how: "list_routines shows whether a routine with that name was created",
  },
  create_watch_profile: {
    tool: "list_watch_profiles",
    how: "list_watch_profiles shows whether a profile with that name was created",
  },
  run_routine: {
    tool: "list_executions",
    how: "list_executions shows whether a run of that routine started (newest first)",
  },
  activate_routine: {
    tool: "get_routine",
    how: "get_routine shows whether the routine is active (activating again is harmless)",
  },
  deactivate_routine: {
    tool: "get_routine",
    how: "get_routine shows whether the routine is inactive (deactivating again is harmless)",
  },
  update_settings: {
    tool: "update_settings",
    how: "the group's values show it (update_settings answers them; writing the same values again is harmless)",
  },
  scan_start: {
    tool: "scan_result",
    how: "scan_result shows where the scan is; its next_action says the one call to make from there (no sweep is started twice)",
  },
  scan_continue: {
    tool: "scan_result",
    how: "scan_result shows where the scan is; its next_action says the one call to make from there (no sweep is started twice)",
  },
  scan_verify: {
    tool: "scan_result",
    how: "scan_result shows whether verification finished",
  },
} as const satisfies Record<string, { tool: ToolName; how: string }>;

export type WriteToolName = keyof typeof WRITE_CHECKS;

const sameRoute = (a: RouteRef, b: RouteRef) => a.method === b.method && a.path === b.path;

/**
 * The requests that change resmon: the routes only write tools reach, other than GETs (a POST that
 * only reads, as search and export are, is also reached by a read tool).
 */
export const WRITE_ROUTES: readonly RouteRef[] = ROUTES.filter(
  (route) =>
    route.method !== "GET" &&
    !TOOLS.some((tool) => tool.kind === "read" && tool.routes.some((r) => sameRoute(r, route))),
);

export function isWriteRoute(route: RouteRef): boolean {
  return WRITE_ROUTES.some((r) => sameRoute(r, route));
}
