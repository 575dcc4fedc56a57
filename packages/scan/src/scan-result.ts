import type { ScanEnvelope, ToolArgs } from "@resmon/mcp-contract";
import { envelopeOf } from "./envelope.js";
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
  if (args.include_markdown && state.files) {
    // Only the scan's own evidence.md, by its fixed name, bounded, never through a symlink.
    const markdown = dir.readText(FILES.md, MAX_MARKDOWN_BYTES);
    if (markdown !== undefined) envelope.payload.markdown = markdown;
  }
  return withFiles(dir, envelope);
}
