import type { ScanEnvelope, ToolArgs } from "@resmon/mcp-contract";
import { envelopeOf } from "./envelope.js";
import { readEvidence } from "./evidence.js";
import { liveHolder } from "./lock.js";
import { type EngineContext, notFound, withFiles } from "./scan-call.js";
import { nextStep as nextStepOf } from "./steps.js";
import { FILES, ScanDir } from "./store.js";

/** The most bytes of an evidence file scan_result returns as text (a 25-paper .bib is tens of KB). */
export const MAX_INLINE_EVIDENCE_BYTES = 512 * 1024;

/** scan_result: the scan as stored, read-only; never asks resmon and never waits on the lock. */
export async function scanResult(ctx: EngineContext, args: ToolArgs<"scan_result">): Promise<ScanEnvelope> {
  const scanId = args.scan_id;
  const dir = new ScanDir(ctx.root, scanId, ctx.scrub);
  // Read-only and never waits on the lock: scan.json is only ever replaced whole.
  const state = dir.readState();
  if (!state) throw notFound(scanId);
  // Only a batch or a page shows records; the rest of the envelope comes from scan.json alone.
  const kind = nextStepOf(state).kind;
  const envelope = envelopeOf(state, kind === "screen" || kind === "rank" ? dir.readRecords() : {});
  // A call working on the scan now: said, since scan_continue would be refused until it ends.
  const running = kind === "complete" ? null : liveHolder(dir.lockPath);
  if (running) {
    envelope.payload.running = running;
    envelope.payload.note = `A ${running.tool} call has been working on this scan since ${running.since}: read scan_result again to see where it got; scan_continue is refused scan_in_progress until that call ends.`;
  }
  // The evidence's text, for a harness that cannot read the server's files: the one evidence read.
  const wanted = [
    ...(args.include_markdown ? [["markdown", FILES.md] as const] : []),
    ...(args.include_bib ? [["bib", FILES.bib] as const] : []),
  ];
  for (const [key, file] of state.files ? wanted : []) {
    const size = dir.sizeOf(file);
    if (size !== undefined && size > MAX_INLINE_EVIDENCE_BYTES) {
      envelope.payload[`${key}_omitted`] =
        `${file} is ${size} bytes, over the ${MAX_INLINE_EVIDENCE_BYTES} one answer carries; read it from files.${key === "bib" ? "bib" : "md"}.`;
      continue;
    }
    envelope.payload[key] = readEvidence(ctx.root, { scan_id: scanId, file }, ctx.scrub).text;
  }
  return withFiles(dir, envelope);
}
