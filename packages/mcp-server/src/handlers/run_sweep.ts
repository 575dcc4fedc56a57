import { FEATURE_SINCE } from "@resmon/mcp-contract";
import { requireKnownSources } from "../backend/this-resmon.js";
import type { Handler } from "../context.js";
import { ToolError } from "../errors.js";
import { answerOf } from "../shape/answer.js";
import { asRecord } from "../shape/values.js";

export const RUN_STARTED =
  "resmon admitted the run. Poll get_execution with this execution_id; it may end completed, failed, cancelled or interrupted (resmon went away before it finished, which is not a failed search).";

/** A sweep's zero is read with its coverage: a source resmon records as unknown or non_answer did not say "no papers". */
const SWEEP_STARTED = `${RUN_STARTED} Its coverage says per source whether resmon recorded an answer: a zero from a source it records as unknown or non_answer is not "no papers".`;

/** A resmon before 2.3 records no coverage: its zero cannot be read, and the answer says so. */
function sweepStartedWithout(version: string | null): string {
  return `${RUN_STARTED} resmon ${version ?? "(no version reported)"} records no per-source coverage (that needs resmon ${FEATURE_SINCE.run_coverage} or newer): a zero from it does not say whether each source answered, so it is not "no papers".`;
}

const NO_EXECUTION_ID =
  "resmon admitted the sweep, but its reply did not say the execution's id, so there is nothing to poll by id. The sweep exists: do not call run_sweep again, or a second one starts. list_executions shows it, newest first.";

export const run_sweep: Handler<"run_sweep"> = async (args, { backend }) => {
  await requireKnownSources(backend, "sources", args.sources);
  const body: {
    query: string;
    repositories: string[];
    date_from?: string;
    date_to?: string;
    max_results?: number;
    ai_enabled?: boolean;
  } = { query: args.query, repositories: args.sources };
  // No date_from the caller did not give: resmon picks bioRxiv/medRxiv starts itself and records them.
  const dateFrom = args.date_from;
  if (dateFrom !== undefined) body.date_from = dateFrom;
  const dateTo = args.date_to;
  if (dateTo !== undefined) body.date_to = dateTo;
  const maxResults = args.max_results;
  if (maxResults !== undefined) body.max_results = maxResults;
  const ai = args.ai_enabled;
  if (ai !== undefined) body.ai_enabled = ai;
  const data = asRecord(await backend.call((c) => c.POST("/api/search/sweep", { body })));
  if (!Number.isSafeInteger(data.execution_id)) {
    // The sweep was admitted; an answer without its id must not read as a sweep that did not start.
    throw new ToolError("upstream_error", NO_EXECUTION_ID, {
      admitted: true,
      not_reported: ["execution_id"],
    });
  }
  const resmon = await backend.resmon();
  const detail = resmon.has("run_coverage") ? SWEEP_STARTED : sweepStartedWithout(resmon.version);
  return answerOf("run_sweep", { execution_id: data.execution_id, detail });
};
