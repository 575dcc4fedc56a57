export { QUERY_KINDS, REQUIRED_QUERY_KINDS } from "./args.js";
export type { Lack, Refusal, ScanBackend, ScanServes } from "./backend.js";
export { defaultScanDataDir } from "./data-dir.js";
export { createScanEngine, DEFAULT_SCAN_WAIT_MS, type ScanEngine, type ScanEngineOptions } from "./engine.js";
export { ScanError, type ScanErrorCode } from "./errors.js";
export {
  EVIDENCE_FILES,
  type Evidence,
  type EvidenceArgs,
  type EvidenceFile,
  type EvidenceListing,
  isEvidenceFile,
  MAX_EVIDENCE_BYTES,
} from "./evidence.js";
export type {
  Cite,
  Criterion,
  GapQuery,
  NextAction,
  PlannedQuery,
  QueryKind,
  QueryPlan,
  RankedEntry,
  ScanContinueArgs,
  ScanEnvelope,
  ScanPhase,
  ScanResultArgs,
  ScanStartArgs,
  ScanVerifyArgs,
  ScreenScore,
} from "./types.js";
