import {
  type ErrorEnvelope,
  type EvidenceFileName,
  parseScanResourceUri,
  SCAN_EVIDENCE_RESOURCES,
  SCAN_RESOURCE_TEMPLATE,
  scanResourceUri,
} from "@resmon/mcp-contract";
import type { EvidencePage, ScanEngine } from "@resmon/scan";
import { LARGE_ANSWER_BYTES, takeLargeAnswer } from "./backend/large-answers.js";
import { boundEchoes, invalidArgument, toEnvelope } from "./errors.js";
import type { Refused } from "./host.js";

/**
 * A finished scan's evidence files as MCP resources (contract 1.4, resources.ts there): listed when
 * a read would serve them, readable by `resmon-scan://<scan_id>/<file>`, linked from the answer that completes a
 * scan. Every read is the scan engine's one evidence read (confined, bounded, scrubbed), so a read
 * here is exactly scan_result's; it is a read, so a read-only session has it too.
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

export interface ScanResources {
  list(cursor: string | undefined): Promise<Record<string, unknown> | Refused>;
  templates(): Record<string, unknown>[];
  read(uri: string): Promise<Record<string, unknown> | Refused>;
}

/** `engine()` is the server's one scan engine (it refuses a misconfigured scan data dir by name). */
export function createScanResources(engine: () => ScanEngine): ScanResources {
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
        const bytes = engine().listEvidenceStateBytes(from);
        const release = bytes >= LARGE_ANSWER_BYTES ? await takeLargeAnswer(bytes) : undefined;
        let page: EvidencePage;
        try {
          page = await engine().listEvidence(from);
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
    async read(uri) {
      try {
        const parsed = parseScanResourceUri(uri);
        if (!parsed.ok) throw invalidArgument(parsed.message, { field: "uri", problem: parsed.problem });
        const evidence = await engine().evidence({ scan_id: parsed.scan_id, file: parsed.file });
        return {
          contents: [{ uri, mimeType: parsed.resource.mime_type, text: evidence.text }],
        };
      } catch (err) {
        const refused = refusal(err, "resources/read");
        refused.refused.data.uri = boundEchoes(uri);
        return refused;
      }
    },
  };
}
