import {
  type ErrorEnvelope,
  type EvidenceFileName,
  parseScanResourceUri,
  SCAN_EVIDENCE_RESOURCES,
  SCAN_RESOURCE_TEMPLATE,
  scanResourceUri,
} from "@resmon/mcp-contract";
import type { EvidencePage, ScanEngine } from "@resmon/scan";
import { cancelledError } from "./backend/cancel.js";
import {
  LARGE_ANSWER_BYTES,
  type LargeAnswersHeld,
  letGo,
  roomFor,
  takeLargeAnswer,
} from "./backend/large-answers.js";
import { boundEchoes, invalidArgument, toEnvelope } from "./errors.js";
import type { Answer, Refused } from "./host.js";

/**
 * A finished scan's evidence files as MCP resources (contract 1.4, resources.ts there): listed when
 * a read would serve them, readable by `resmon-scan://<scan_id>/<file>`, linked from the answer that completes a
 * scan. Every read is the scan engine's one evidence read (confined, bounded, scrubbed), so a read
 * here is exactly scan_result's; it is a read, so a read-only session has it too.
 *
 * A read holds its file and the scan's scan.json whole, then their copies on the way to stdout (a
 * 4 MiB evidence.md: ~60 MB), so it takes room in the budget of large answers first, as a tool call
 * does (backend/large-answers.ts), and gives it back once its frame has left (serve.ts). 64
 * pipelined reads of a 4 MiB evidence.md took the server past 1.9 GB without it (issue 41).
 */

const RESOURCE_BY_FILE = new Map(SCAN_EVIDENCE_RESOURCES.map((r) => [r.file, r]));

/** One evidence file as a resource entry (resources/list) or a resource_link (a tool answer). */
export function evidenceResource(scanId: string, file: EvidenceFileName, bytes?: number, writtenAt?: number) {
  const r = RESOURCE_BY_FILE.get(file);
  return {
    uri: scanResourceUri(scanId, file),
    name: `${scanId}/${file}`,
    title: `${r?.title ?? file}, scan ${scanId.slice(0, 8)}`,
    ...(r ? { description: r.description, mimeType: r.mime_type } : {}),
    ...(bytes !== undefined ? { size: bytes } : {}),
    ...(writtenAt !== undefined ? { annotations: { lastModified: new Date(writtenAt).toISOString() } } : {}),
  };
}

/** The three resource_link blocks of a finished scan, for the answer that completes it. */
export function evidenceLinks(scanId: string): Record<string, unknown>[] {
  return SCAN_EVIDENCE_RESOURCES.map((r) => ({ type: "resource_link", ...evidenceResource(scanId, r.file) }));
}

function refusal(err: unknown, method: string): Refused {
  const envelope: ErrorEnvelope = boundEchoes(toEnvelope(err, method));
  return { refused: { message: envelope.message, data: { ...envelope } } };
}

/** A read's answer, and what gives back its room in the budget (once its frame has left). */
export interface HeldRead {
  answer: Answer;
  release: () => void;
}

export interface ScanResources {
  list(cursor: string | undefined): Promise<Record<string, unknown> | Refused>;
  templates(): Record<string, unknown>[];
  /** `signal`: the client cancelled the read (nothing is read after it). */
  read(uri: string, signal?: AbortSignal): Promise<HeldRead>;
}

/** `engine()` is the server's one scan engine (it refuses a misconfigured scan data dir by name). */
export function createScanResources(engine: () => ScanEngine | Promise<ScanEngine>): ScanResources {
  return {
    async list(cursor) {
      try {
        const from = cursor === undefined ? 0 : Number(cursor);
        if (!/^\d{1,9}$/.test(cursor ?? "0") || !Number.isSafeInteger(from)) {
          throw invalidArgument("cursor is not one this server gave: list again from the start.", {
            field: "cursor",
          });
        }
        // A page is what a read serves (the engine's listEvidence), twenty scans at most. It reads
        // their scan.json files whole, one at a time: room for the largest in the large answers' budget.
        const scans = await engine();
        const bytes = scans.listEvidenceStateBytes(from);
        const release = bytes >= LARGE_ANSWER_BYTES ? await takeLargeAnswer(bytes) : undefined;
        let page: EvidencePage;
        try {
          page = await scans.listEvidence(from);
        } finally {
          release?.();
        }
        return {
          resources: page.files.map((l) => evidenceResource(l.scan_id, l.file, l.bytes, l.written_at)),
          ...(page.next !== undefined ? { nextCursor: String(page.next) } : {}),
        };
      } catch (err) {
        return refusal(err, "resources/list");
      }
    },
    templates: () => [
      {
        uriTemplate: SCAN_RESOURCE_TEMPLATE,
        name: "scan-evidence",
        title: "Scan evidence",
        description: `A finished scan's evidence: {file} is ${SCAN_EVIDENCE_RESOURCES.map((r) => `${r.file} (${r.mime_type})`).join(", ")}.`,
      },
    ],
    async read(uri, signal) {
      const large: LargeAnswersHeld = { waitedMs: 0 };
      const release = () => letGo(large);
      try {
        const parsed = parseScanResourceUri(uri);
        if (!parsed.ok) throw invalidArgument(parsed.message, { field: "uri", problem: parsed.problem });
        const scans = await engine();
        await roomFor(scans.evidenceBytes(parsed.scan_id, parsed.file), large, signal);
        if (signal?.aborted) throw cancelledError();
        const evidence = await scans.evidence({ scan_id: parsed.scan_id, file: parsed.file });
        const text = { uri, mimeType: parsed.resource.mime_type, text: evidence.text };
        return { answer: { contents: [text] }, release };
      } catch (err) {
        const refused = refusal(err, "resources/read");
        refused.refused.data.uri = boundEchoes(uri);
        return { answer: refused, release };
      }
    },
  };
}
