import type { Handler } from "../context.js";
import { answerOf, notCarried } from "../shape/answer.js";
import { markNotReported } from "../shape/reported.js";
import { asRecord, requireArray } from "../shape/values.js";

/** resmon's own page cap for GET /api/executions. */
const BACKEND_PAGE = 500;
/** How far a filtered listing walks before it says it stopped looking. */
const MAX_SCANNED = 10_000;

/** resmon's own count of a run's sources by category (answered, non_answer, unknown, genuine_empty), as it said it. */
function coverageOf(r: Record<string, unknown>): Record<string, unknown> | null {
  const cov = r.coverage;
  if (cov === null || typeof cov !== "object" || Array.isArray(cov)) return null;
  const c = cov as Record<string, unknown>;
  return { counts: c.counts ?? null };
}

function projection(row: unknown, i: number, recordsCoverage: boolean): Record<string, unknown> {
  const r = asRecord(row);
  const coverage = coverageOf(r);
  // resmon 2.3 and later record every run's coverage: one without it is not resmon's answer.
  if (!coverage && recordsCoverage)
    throw notCarried("list_executions", `executions.${i}.coverage`, "Required");
  const out: Record<string, unknown> = {
    id: r.id ?? null,
    type: r.execution_type ?? null,
    routine_id: r.routine_id ?? null,
    status: r.status ?? null,
    started: r.start_time ?? null,
    finished: r.end_time ?? null,
    result_count: r.result_count ?? null,
    interrupted_reason: r.interrupted_reason ?? null,
    restarted_from: r.restarted_from ?? null,
  };
  // A zero with a source that did not answer is not "no papers": the counts say which it was.
  // Before 2.3 resmon records no coverage: named not reported, never zero counts.
  if (coverage) out.coverage = coverage;
  else markNotReported(out, ["coverage"]);
  return out;
}

export const list_executions: Handler<"list_executions"> = async (args, { backend }) => {
  const recordsCoverage = (await backend.resmon()).has("run_coverage");
  const project = (rows: unknown[]) => rows.map((row, i) => projection(row, i, recordsCoverage));
  const limit = args.limit;
  const offset = args.offset;
  const routineId = args.routine_id;
  const status = args.status;
  const fetchPage = async (pageOffset: number, pageLimit: number) =>
    requireArray(
      await backend.call((c) =>
        c.GET("/api/executions", { params: { query: { limit: pageLimit, offset: pageOffset } } }),
      ),
      "the executions",
    );

  const pageAnswer = (page: unknown[], hasMore: boolean) => ({
    executions: page,
    count: page.length,
    offset,
    limit,
    has_more: hasMore,
    next_offset: hasMore ? offset + page.length : null,
  });

  if (routineId === undefined && status === undefined) {
    // One extra row says whether another page exists without claiming a total resmon never gave.
    const rows = await fetchPage(offset, Math.min(limit + 1, BACKEND_PAGE));
    return answerOf("list_executions", pageAnswer(project(rows.slice(0, limit)), rows.length > limit));
  }

  // resmon has no routine or status filter: walk its pages and filter here, honestly.
  const wanted = (row: unknown) => {
    const r = asRecord(row);
    return (
      (routineId === undefined || r.routine_id === routineId) && (status === undefined || r.status === status)
    );
  };
  const matches: unknown[] = [];
  let scanned = 0;
  let exhausted = false;
  while (matches.length <= offset + limit && scanned < MAX_SCANNED) {
    const rows = await fetchPage(scanned, BACKEND_PAGE);
    scanned += rows.length;
    matches.push(...rows.filter(wanted));
    if (rows.length < BACKEND_PAGE) {
      exhausted = true;
      break;
    }
  }
  const page = project(matches.slice(offset, offset + limit));
  // An empty page at the scan cap must not point back at itself: the note says why it stopped.
  const hasMore = (matches.length > offset + limit || !exhausted) && page.length > 0;
  const answer: Record<string, unknown> = { ...pageAnswer(page, hasMore), filtered_here: true, scanned };
  if (exhausted) answer.total = matches.length;
  else if (scanned >= MAX_SCANNED) {
    answer.note = `Stopped after reading ${scanned} runs; more may match further back.`;
  }
  return answerOf("list_executions", answer);
};
