/**
 * A scan's evidence as MCP resources (contract 1.4): one URI scheme, one template, three fixed files
 * with their MIME types. The server lists a finished scan's files, reads them by URI and links them
 * (`resource_link`) in the answer that completes a scan; nothing else is ever served under it.
 */

export const SCAN_RESOURCE_SCHEME = "resmon-scan";
/** RFC 6570 level 1: `{scan_id}` is the scan's lowercase UUIDv4, `{file}` one of SCAN_EVIDENCE_RESOURCES. */
export const SCAN_RESOURCE_TEMPLATE = `${SCAN_RESOURCE_SCHEME}://{scan_id}/{file}`;

export interface EvidenceResource {
  file: "evidence.md" | "evidence.json" | "evidence.bib";
  mime_type: string;
  title: string;
  description: string;
}

export const SCAN_EVIDENCE_RESOURCES: readonly EvidenceResource[] = [
  {
    file: "evidence.md",
    mime_type: "text/markdown",
    title: "Scan evidence (Markdown)",
    description: "The scan's result for a person: ranked papers, their verification, coverage.",
  },
  {
    file: "evidence.json",
    mime_type: "application/json",
    title: "Scan evidence (JSON)",
    description: "Every packet of the scan: records, screening, ranking, verification, coverage.",
  },
  {
    file: "evidence.bib",
    mime_type: "application/x-bibtex",
    title: "Scan references (BibTeX)",
    description: "resmon's own BibTeX of the chosen papers, in rank order.",
  },
];

export type EvidenceFileName = EvidenceResource["file"];

const SCAN_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export function scanResourceUri(scanId: string, file: EvidenceFileName): string {
  return `${SCAN_RESOURCE_SCHEME}://${scanId}/${file}`;
}

export type ScanUri =
  | { ok: true; scan_id: string; file: EvidenceFileName; resource: EvidenceResource }
  | { ok: false; problem: "scheme" | "scan_id" | "file"; message: string };

/**
 * A scan resource URI taken apart, exactly: the scheme, a canonical scan id, one fixed file name and
 * nothing else (no query, fragment, percent-escape, `..`, further segment or other spelling).
 * Anything else is refused by what is wrong, so a read never guesses.
 */
export function parseScanResourceUri(uri: string): ScanUri {
  const prefix = `${SCAN_RESOURCE_SCHEME}://`;
  const shown = JSON.stringify(uri.length > 120 ? `${uri.slice(0, 120)}…` : uri);
  if (!uri.startsWith(prefix)) {
    return {
      ok: false,
      problem: "scheme",
      message: `${shown} is not a resource of this server: its resources are ${SCAN_RESOURCE_TEMPLATE}.`,
    };
  }
  const rest = uri.slice(prefix.length);
  const slash = rest.indexOf("/");
  const scanId = slash < 0 ? rest : rest.slice(0, slash);
  if (!SCAN_ID.test(scanId)) {
    return {
      ok: false,
      problem: "scan_id",
      message: `${shown} names no scan: the part after ${prefix} must be a scan_id, a canonical lowercase UUIDv4.`,
    };
  }
  const file = slash < 0 ? "" : rest.slice(slash + 1);
  const resource = SCAN_EVIDENCE_RESOURCES.find((r) => r.file === file);
  if (!resource) {
    return {
      ok: false,
      problem: "file",
      message: `${shown} names no evidence file: a scan's are ${SCAN_EVIDENCE_RESOURCES.map((r) => r.file).join(", ")}.`,
    };
  }
  return { ok: true, scan_id: scanId, file: resource.file, resource };
}
