import type { ScanEnvelope, ToolArgs } from "@resmon/mcp-contract";
import { envelopeOf } from "./envelope.js";
import { liveHolder } from "./lock.js";
import { type EngineContext, notFound, withFiles } from "./scan-call.js";
import { nextStep as nextStepOf } from "./steps.js";
import { FILES, MAX_MARKDOWN_BYTES, ScanDir } from "./store.js";

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
  if (args.include_markdown && state.files) {
    // Only the scan's own evidence.md, by its fixed name, bounded, never through a symlink.
    const markdown = dir.readText(FILES.md, MAX_MARKDOWN_BYTES);
    if (markdown !== undefined) envelope.payload.markdown = markdown;
  }
  return withFiles(dir, envelope);
}
