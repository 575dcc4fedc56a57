import type { ScanState } from "./state.js";

/**
 * What a mutating scan call reports while it works, through the plain callback its caller passes
 * (`onProgress`): the stage, units done of the stage's total (never fewer than last time within a
 * stage) and one short sentence. The engine knows no MCP; the server turns these into
 * `notifications/progress`.
 */
export interface ScanProgress {
  stage: "retrieve" | "screen" | "verify";
  done: number;
  total: number;
  message: string;
}

export type OnProgress = (progress: ScanProgress) => void;

/** The stage a call is working in, as the call says it (retrievalPass, runVerification). */
export type ProgressStage = { kind: "retrieve"; round: number } | { kind: "screen" } | { kind: "verify" };

const plural = (n: number, one: string) =>
  `${n} ${n === 1 ? one : one.endsWith("h") ? `${one}es` : `${one}s`}`;

/**
 * A round's retrieval: each sweep or corpus search finished of those planned, then one more unit
 * once the round is pooled (the candidates it left to screen); verification: each ranked paper
 * checked against resmon's record, then one more once the evidence is written.
 */
export function progressOf(state: ScanState, stage: ProgressStage): ScanProgress {
  if (stage.kind === "screen") {
    const batches = state.batches.filter((b) => !b.skipped);
    const scored = batches.filter((b) => b.accepted_hash !== null).length;
    const papers = batches.reduce((n, b) => n + (b.scores?.length ?? 0), 0);
    return {
      stage: "screen",
      done: scored,
      total: batches.length,
      message: `Screening: batch ${scored} of ${batches.length} scored (${plural(papers, "paper")}).`,
    };
  }
  if (stage.kind === "verify") {
    const ranked = state.pages.reduce((n, p) => n + (p.entries?.length ?? 0), 0);
    const checked = Math.min(ranked, Object.keys(state.checks?.lifecycle ?? {}).length);
    const written = state.files !== null;
    return {
      stage: "verify",
      done: checked + (written ? 1 : 0),
      total: ranked + 1,
      message: written
        ? `Verification done: ${plural(ranked, "paper")} checked against resmon's record; evidence written.`
        : `Verification: ${checked} of ${plural(ranked, "ranked paper")} checked against resmon's record.`,
    };
  }
  const tasks = state.tasks.filter((t) => t.round === stage.round);
  const finished = tasks.filter((t) => t.status === "done" || t.status === "failed");
  const pooled = state.retrieving !== stage.round;
  const what = (via: "sweep" | "corpus", word: string) => {
    const all = tasks.filter((t) => t.via === via);
    const done = finished.filter((t) => t.via === via).length;
    return all.length ? [`${done} of ${plural(all.length, word)}`] : [];
  };
  const parts = [...what("sweep", "sweep"), ...what("corpus", "corpus search")].join(", ");
  const waiting = tasks.filter((t) => t.retry_at && Date.parse(t.retry_at) > Date.now()).length;
  const found = new Set(finished.flatMap((t) => t.doc_ids ?? [])).size;
  const round = stage.round === 0 ? "Retrieval" : "Gap-round retrieval";
  return {
    stage: "retrieve",
    done: finished.length + (pooled ? 1 : 0),
    total: tasks.length + 1,
    message: pooled
      ? `${round} done: ${parts} finished; ${plural(state.candidates.length, "candidate")} pooled to screen.`
      : `${round}: ${parts} finished; ${plural(found, "record")} returned so far (before duplicates and filters are removed)${waiting ? `; ${waiting} waiting for a free run slot` : ""}.`,
  };
}
