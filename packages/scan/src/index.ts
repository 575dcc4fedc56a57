export type { ScanBackend, ScanServes } from "./backend.js";
export { defaultScanDataDir, isFullPath } from "./data-dir.js";
export {
  createScanEngine,
  DEFAULT_SCAN_WAIT_MS,
  type ScanCallOptions,
  type ScanEngine,
  type ScanEngineOptions,
} from "./engine.js";
export {
  EVIDENCE_FILES,
  type Evidence,
  type EvidenceArgs,
  type EvidenceFile,
  type EvidenceListing,
  type EvidencePage,
  isEvidenceFile,
  MAX_EVIDENCE_BYTES,
} from "./evidence.js";
export type { OnProgress, ScanProgress } from "./progress.js";
export { DEFAULT_RETRY_WAIT_MS } from "./stop.js";
