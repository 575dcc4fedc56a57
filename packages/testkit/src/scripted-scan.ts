/**
 * A scripted harness for the scan tools (contract 1.1): it plays the model's part with fixed,
 * deterministic judgements and follows `next_action` alone, so tests, the bench and the demo can run
 * a whole scan against the stand-in. It knows no MCP: the caller passes how to call a tool.
 */

export type ToolCall = (
  name: string,
  args: Record<string, unknown>,
) => Promise<{ ok: boolean; body: Record<string, unknown> }>;

export interface ScanPlanOptions {
  scanId: string;
  sources?: string[];
  retrieval?: "sweep" | "corpus" | "both";
  profile?: "quick" | "standard" | "deep";
  top?: number;
  forceGapRound?: boolean;
}

/** A plan over the stand-in's "protein folding structure" topic: three criteria, one query per kind. */
export function scanStartArgs(opts: ScanPlanOptions): Record<string, unknown> {
  const kinds = ["direct", "terminology", "contradictory", "review", "mechanism", "method"] as const;
  const texts = ["protein folding", "protein structure", "folding", "protein", "structure", "prediction"];
  return {
    scan_id: opts.scanId,
    brief: "# Protein folding\n\nWhich papers in resmon best show how protein structure is predicted?",
    queries: {
      criteria: [
        { id: "C1", text: "studies protein folding" },
        { id: "C2", text: "predicts protein structure" },
        { id: "C3", text: "reports a method" },
      ],
      queries: kinds.map((kind, i) => ({ id: `q${i + 1}`, kind, text: texts[i] ?? kind })),
    },
    sources: opts.sources ?? ["arxiv", "biorxiv", "pubmed"],
    ...(opts.retrieval ? { retrieval: opts.retrieval } : {}),
    ...(opts.profile ? { profile: opts.profile } : {}),
    ...(opts.top !== undefined ? { top: opts.top } : {}),
    ...(opts.forceGapRound ? { force_gap_round: true } : {}),
    // Each scripted scan is its own scan, even when another with the same plan is still open.
    allow_duplicate: true,
  };
}

export type Item = Record<string, unknown> & { doc_id: number };

function isItem(x: unknown): x is Item {
  return typeof x === "object" && x !== null && Number.isInteger((x as { doc_id?: unknown }).doc_id);
}

/** The papers the envelope asks about: its screening batch's or its shortlist page's items. */
export function payloadItems(envelope: Record<string, unknown>): Item[] {
  const payload = (envelope.payload ?? {}) as Record<string, { items?: unknown } | undefined>;
  const items = (payload.batch ?? payload.page)?.items;
  return Array.isArray(items) ? items.filter(isItem) : [];
}

const text = (x: unknown) => (typeof x === "string" ? x.toLowerCase() : "");

/** A fixed screening judgement: on-topic titles score high and hit criteria; the rest score 0. */
export function screenScores(items: Item[]): Record<string, unknown>[] {
  return items.map((item) => {
    const title = text(item.title);
    const folding = title.includes("folding");
    const structure = title.includes("structure") || title.includes("prediction");
    const score = folding && structure ? 3 : folding || structure ? 2 : title.includes("protein") ? 1 : 0;
    const hit = [...(folding ? ["C1"] : []), ...(structure ? ["C2"] : []), ...(score >= 2 ? ["C3"] : [])];
    return { doc_id: item.doc_id, score, criteria_hit: hit, reason: "scripted" };
  });
}

/** A rank for every paper of the page, in the order given, citing resmon's own values. */
export function rankedEntries(items: Item[], firstRank = 1): Record<string, unknown>[] {
  return items.map((item, i) => {
    const cite: Record<string, unknown> = {};
    if (typeof item.doi === "string" && item.doi) cite.doi = item.doi;
    if (typeof item.title === "string" && item.title) cite.title = item.title;
    if (Number.isInteger(item.year)) cite.year = item.year;
    return { doc_id: item.doc_id, rank: firstRank + i, role: "core", why: "scripted", cite };
  });
}

/** A judge of a screening batch: one score for every item (screenScores' fixed judgement by default). */
export type ScreenJudge = (items: Item[]) => Record<string, unknown>[];
/** A judge of a shortlist page: a rank for every item, from `firstRank` on (rankedEntries by default). */
export type RankJudge = (items: Item[], firstRank: number) => Record<string, unknown>[];

export interface FollowOptions {
  /** How batches are scored (default: screenScores). */
  screen?: ScreenJudge;
  /** How pages are ranked (default: rankedEntries, in the order given). */
  rank?: RankJudge;
  /** Gap queries to send when asked (default []: skip the round). */
  gapQueries?: Record<string, unknown>[];
  /** Most calls before giving up (default 500). */
  maxCalls?: number;
  /** Called with every answer, in order. */
  onAnswer?: (
    name: string,
    args: Record<string, unknown>,
    answer: { ok: boolean; body: Record<string, unknown> },
  ) => void;
}

export interface FollowResult {
  /** Every call made and its answer. */
  calls: { name: string; args: Record<string, unknown>; ok: boolean; body: Record<string, unknown> }[];
  final: Record<string, unknown>;
}

/**
 * Start the scan and answer each envelope's next_action until it says complete, then read
 * scan_result. Throws on an error answer (a test wants to see it) or when the calls run out.
 */
export async function followScan(
  call: ToolCall,
  startArgs: Record<string, unknown>,
  opts: FollowOptions = {},
): Promise<FollowResult> {
  const scanId = String(startArgs.scan_id);
  const calls: FollowResult["calls"] = [];
  let ranked = 0;
  const send = async (name: string, args: Record<string, unknown>) => {
    const answer = await call(name, args);
    calls.push({ name, args, ...answer });
    opts.onAnswer?.(name, args, answer);
    if (!answer.ok) throw new Error(`${name} failed: ${JSON.stringify(answer.body).slice(0, 600)}`);
    return answer.body;
  };
  let envelope = await send("scan_start", startArgs);
  for (let i = 0; i < (opts.maxCalls ?? 500); i++) {
    switch (envelope.next_action) {
      case "await_retrieval":
        envelope = await send("scan_continue", { scan_id: scanId });
        break;
      case "retry_start":
        envelope = await send("scan_start", startArgs);
        break;
      case "screen_candidates":
        envelope = await send("scan_continue", {
          scan_id: scanId,
          screen_scores: (opts.screen ?? screenScores)(payloadItems(envelope)),
        });
        break;
      case "write_gap_queries":
        envelope = await send("scan_continue", { scan_id: scanId, gap_queries: opts.gapQueries ?? [] });
        break;
      case "rank_shortlist": {
        // A rank orders the whole shortlist: continue after what the scan has ranked already (a scan
        // taken over part-way through its pages has ranks this call did not give).
        const progressRanked = (envelope.progress as { ranked?: unknown } | undefined)?.ranked;
        const already = typeof progressRanked === "number" ? progressRanked : ranked;
        const entries = (opts.rank ?? rankedEntries)(payloadItems(envelope), already + 1);
        ranked += entries.length;
        envelope = await send("scan_continue", { scan_id: scanId, ranked_entries: entries });
        break;
      }
      case "verify_ranked":
        envelope = await send("scan_verify", { scan_id: scanId });
        break;
      case "choose_option": {
        // A stopped scan: the first option that needs no person (closing it), as a harness alone would.
        const options = ((envelope.payload as { options?: unknown } | undefined)?.options ?? []) as {
          tool: string;
          arguments: Record<string, unknown> | null;
          needs_person?: boolean;
        }[];
        const pick = options.find((o) => o.needs_person !== true && o.arguments);
        if (!pick?.arguments) throw new Error("choose_option with no option a harness may take alone");
        envelope = await send(pick.tool, pick.arguments);
        break;
      }
      case "complete":
        return { calls, final: await send("scan_result", { scan_id: scanId }) };
      default:
        throw new Error(`unexpected next_action: ${String(envelope.next_action)}`);
    }
  }
  throw new Error(`the scan did not complete within ${opts.maxCalls ?? 500} calls`);
}
