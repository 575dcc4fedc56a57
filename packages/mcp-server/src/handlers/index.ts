import type { HandlerRegistry } from "../context.js";
import { activate_routine } from "./activate_routine.js";
import { create_routine } from "./create_routine.js";
import { create_watch_profile } from "./create_watch_profile.js";
import { deactivate_routine } from "./deactivate_routine.js";
import { explain_match } from "./explain_match.js";
import { export_references } from "./export_references.js";
import { find_similar } from "./find_similar.js";
import { get_analytics } from "./get_analytics.js";
import { get_execution } from "./get_execution.js";
import { get_execution_results } from "./get_execution_results.js";
import { get_paper_lifecycle } from "./get_paper_lifecycle.js";
import { get_profile_matches } from "./get_profile_matches.js";
import { get_routine } from "./get_routine.js";
import { get_search_record } from "./get_search_record.js";
import { get_watch_profile } from "./get_watch_profile.js";
import { get_watchdog_findings } from "./get_watchdog_findings.js";
import { health } from "./health.js";
import { list_executions } from "./list_executions.js";
import { list_routines } from "./list_routines.js";
import { list_sources } from "./list_sources.js";
import { list_watch_profiles } from "./list_watch_profiles.js";
import { run_routine } from "./run_routine.js";
import { run_sweep } from "./run_sweep.js";
import { scan_continue } from "./scan_continue.js";
import { scan_result } from "./scan_result.js";
import { scan_start } from "./scan_start.js";
import { scan_verify } from "./scan_verify.js";
import { search_corpus } from "./search_corpus.js";
import { update_settings } from "./update_settings.js";

/** Keyed by the contract's ToolName: adding a tool to the table without a handler does not compile. */
export const HANDLERS: HandlerRegistry = {
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
};
