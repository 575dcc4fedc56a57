import type { z } from "zod";
import { activate_routine } from "./tools/activate_routine.js";
import { create_routine } from "./tools/create_routine.js";
import { create_watch_profile } from "./tools/create_watch_profile.js";
import { deactivate_routine } from "./tools/deactivate_routine.js";
import { explain_match } from "./tools/explain_match.js";
import { export_references } from "./tools/export_references.js";
import { find_similar } from "./tools/find_similar.js";
import { get_analytics } from "./tools/get_analytics.js";
import { get_execution } from "./tools/get_execution.js";
import { get_execution_results } from "./tools/get_execution_results.js";
import { get_paper_lifecycle } from "./tools/get_paper_lifecycle.js";
import { get_profile_matches } from "./tools/get_profile_matches.js";
import { get_routine } from "./tools/get_routine.js";
import { get_search_record } from "./tools/get_search_record.js";
import { get_watch_profile } from "./tools/get_watch_profile.js";
import { get_watchdog_findings } from "./tools/get_watchdog_findings.js";
import { health } from "./tools/health.js";
import { list_executions } from "./tools/list_executions.js";
import { list_routines } from "./tools/list_routines.js";
import { list_sources } from "./tools/list_sources.js";
import { list_watch_profiles } from "./tools/list_watch_profiles.js";
import { run_routine } from "./tools/run_routine.js";
import { run_sweep } from "./tools/run_sweep.js";
import { scan_continue } from "./tools/scan_continue.js";
import { scan_result } from "./tools/scan_result.js";
import { scan_start } from "./tools/scan_start.js";
import { scan_verify } from "./tools/scan_verify.js";
import { search_corpus } from "./tools/search_corpus.js";
import { update_settings } from "./tools/update_settings.js";
import type { ToolDef, ToolName, ToolRow } from "./types.js";
import { TOOL_NAMES } from "./types.js";

/**
 * Every tool's row, keyed by name. The mapped type makes a missing or misnamed row a compile error,
 * and ToolRow forces kind, confirmation, annotations and at least one route on each.
 */
const ROWS = {
  health,
  search_corpus,
  find_similar,
  list_sources,
  list_routines,
  get_routine,
  list_executions,
  get_execution,
  get_execution_results,
  get_search_record,
  explain_match,
  get_paper_lifecycle,
  get_analytics,
  get_watchdog_findings,
  export_references,
  list_watch_profiles,
  get_watch_profile,
  get_profile_matches,
  run_sweep,
  create_routine,
  create_watch_profile,
  run_routine,
  activate_routine,
  deactivate_routine,
  update_settings,
  scan_start,
  scan_continue,
  scan_verify,
  scan_result,
} satisfies { readonly [N in ToolName]: ToolRow<N, z.ZodObject, z.ZodObject> };

type Rows = typeof ROWS;

/** A tool's arguments after parsing (defaults applied), typed from its own schema. */
export type ToolArgs<N extends ToolName> = z.output<Rows[N]["input"]>;
/** A tool's success shape, typed from its own schema. */
export type ToolResult<N extends ToolName> = z.output<Rows[N]["output"]>;
/** The exact row, with its schemas' precise types. */
export type ToolRowOf<N extends ToolName> = Rows[N];

export const TOOL_ROWS: Rows = ROWS;

export const TOOL_BY_NAME: { readonly [N in ToolName]: ToolDef<N> } = ROWS;

/** The tools in table order: 1.0's 18 reads and 7 writes, then 1.1's three scan writes and scan_result. */
export const TOOLS: readonly ToolDef[] = TOOL_NAMES.map((name) => TOOL_BY_NAME[name]);

export function isToolName(x: string): x is ToolName {
  return (TOOL_NAMES as readonly string[]).includes(x);
}

/** Derived from the rows, never typed twice. */
export const READ_TOOLS: readonly ToolName[] = TOOLS.filter((t) => t.kind === "read").map((t) => t.name);
export const WRITE_TOOLS: readonly ToolName[] = TOOLS.filter((t) => t.kind === "write").map((t) => t.name);

/**
 * The embedded assistant's pre-approved list (Claude Code's `mcp__<server>__<tool>` form), built from
 * READ_TOOLS only, so what the model may call without asking cannot drift from what the contract calls safe.
 */
export function preApprovedTools(serverName = "resmon"): string[] {
  return READ_TOOLS.map((name) => `mcp__${serverName}__${name}`);
}
