export type { EmbeddingState, IdentityMode } from "./backend.js";
export { DECLARED_ROUTES, type DeclaredRoute } from "./declared.js";
export { cleanEnv, serverEnv } from "./env.js";
export type { Fault } from "./faults.js";
export type { SeedName, SeedSummary } from "./seed/index.js";
export { type RecordedRequest, startTestkit, type Testkit, type TestkitOptions } from "./testkit.js";
