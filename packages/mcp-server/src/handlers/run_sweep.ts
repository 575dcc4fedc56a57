import type { Handler } from "../context.js";
import { asRecord } from "../shape/values.js";

export const RUN_STARTED =
  "resmon admitted the run. Poll get_execution with this execution_id; it may end completed, failed, cancelled or interrupted (resmon went away before it finished, which is not a failed search).";

export const run_sweep: Handler<"run_sweep"> = async (args, { backend }) => {
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
  return { execution_id: data.execution_id ?? null, detail: RUN_STARTED };
};
