import type { RankedEntry, ScanEnvelope, ScreenScore } from "@resmon/mcp-contract";
import type { ScanEngine } from "../../src/index.js";

type Item = { doc_id: number; title?: string | null; doi?: string | null; year?: number | null };

/** The gap round's query: it finds "Equivariant graph neural networks …" papers the planned queries' newest 8 per source did not reach. */
export const GAP_QUERIES = [{ text: "equivariant", criterion: "C3" }];

/** A deterministic stand-in for the model's judgements. */
export function scoreBatch(items: Item[]): ScreenScore[] {
  return items.map((it) => {
    const score = (it.doc_id % 4) as 0 | 1 | 2 | 3;
    return { doc_id: it.doc_id, score, criteria_hit: score === 0 ? [] : score >= 2 ? ["C1", "C2"] : ["C3"] };
  });
}

export function rankPage(items: Item[], startRank: number): RankedEntry[] {
  return items.map((it, i) => ({
    doc_id: it.doc_id,
    rank: startRank + i,
    why: "fits the brief",
    cite: { ...(it.doi ? { doi: it.doi } : {}), ...(it.title ? { title: it.title } : {}) },
  }));
}

/** Follow next_action alone until the scan completes; returns every envelope seen. */
export async function driveToEnd(
  engine: ScanEngine,
  first: ScanEnvelope,
  maxCalls = 200,
  firstRank = 1,
): Promise<ScanEnvelope[]> {
  const seen = [first];
  let env = first;
  // A rank orders the whole shortlist: pages go on from the ranks already given.
  let rank = firstRank;
  for (let i = 0; i < maxCalls && env.next_action !== "complete"; i++) {
    const scan_id = env.scan_id;
    const payload = env.payload as Record<string, { items: Item[] }>;
    switch (env.next_action) {
      case "await_retrieval":
        env = await engine.continue({ scan_id });
        break;
      case "screen_candidates":
        env = await engine.continue({ scan_id, screen_scores: scoreBatch(payload.batch?.items ?? []) });
        break;
      case "write_gap_queries":
        env = await engine.continue({
          scan_id,
          gap_queries: GAP_QUERIES,
        });
        break;
      case "rank_shortlist": {
        const items = payload.page?.items ?? [];
        env = await engine.continue({ scan_id, ranked_entries: rankPage(items, rank) });
        rank += items.length;
        break;
      }
      case "verify_ranked":
        env = await engine.verify({ scan_id });
        break;
      default:
        throw new Error(`unexpected next_action ${env.next_action}`);
    }
    seen.push(env);
  }
  return seen;
}
