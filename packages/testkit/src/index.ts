export type { EmbeddingState, IdentityMode } from "./backend.js";
export { applyControl, CONTROL_USAGE, type ControlAnswer } from "./control.js";
export {
  BM25_B,
  BM25_K1,
  CORPUS_SOURCES,
  Corpus,
  type CorpusRecord,
  type CorpusSource,
  readCorpus,
  sourcesOf,
} from "./corpus.js";
export { SOURCE_MODES, type SourceMode } from "./coverage.js";
export type { DeclaredRoute } from "./declared.js";
export { cleanEnv, serverEnv } from "./env.js";
export type { Fault } from "./faults.js";
export {
  followInstructions,
  type InstructedOptions,
  type InstructedResult,
  type LearnedStep,
  type ListedTool,
  learnSteps,
  type ScanOption,
} from "./instructed-scan.js";
export { createRng, type Rng } from "./prng.js";
export {
  FACTS,
  type Fact,
  type Line,
  PUBLIC_BUILD,
  RELEASES,
  type Release,
  releaseNamed,
} from "./releases.js";
export { DECLARED_ROUTES } from "./router.js";
export { FAILED_SOURCE_MESSAGE } from "./runner.js";
export {
  type FollowOptions,
  type FollowResult,
  followScan,
  type Item,
  payloadItems,
  type RankJudge,
  rankedEntries,
  type ScanPlanOptions,
  type ScreenJudge,
  scanStartArgs,
  screenScores,
  type ToolCall,
} from "./scripted-scan.js";
export { type SeedName, type SeedSummary, seedSummary } from "./seed/index.js";
export { type RecordedRequest, startTestkit, type Testkit, type TestkitOptions } from "./testkit.js";
export { TICK_MS, ticks } from "./time-scale.js";
