export { AnswerHeaders } from "./answer-headers.js";
export {
  createResmonClient,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_JSON_VALUES,
  DEFAULT_TIMEOUT_MS,
  type HttpVerb,
  isValidPort,
  loopbackUrl,
  type MethodName,
  type PathsWith,
  type RequestInitOf,
  type ResmonClient,
  type ResmonClientOptions,
  type ResponseBodyOf,
  type ServedPath,
  type StreamInitOf,
  type StreamOptions,
  type StreamResult,
  type ViewOptions,
} from "./client.js";
export {
  DEFAULT_PROBE_TIMEOUT_MS,
  type DiscoverOptions,
  type Discovery,
  type DiscoveryRefusal,
  discover,
  NOT_RUNNING_MESSAGE,
  nothingNamedForClient,
  nothingNamedMessage,
  type RefusalKind,
} from "./discovery.js";
export {
  type ApiError,
  type ApiResult,
  GUARD_REASONS,
  GUARD_REMEDIES,
  type GuardReason,
  isGuardReason,
  retryRemedy,
  scrubText,
  scrubValue,
} from "./errors.js";
export type { components, operations, paths } from "./generated/resmon-api.js";
export { type Identity, type IdentityResult, isCanonicalUuid4, parseIdentity } from "./identity.js";
export { FILE_PROBLEM_TEXT, type FileProblem, readSmallFile } from "./small-file.js";
export { defaultStateDir, resolvePortFile, resolveStateDir, tokenFileFor } from "./state-paths.js";
export { ApiStreamError, describeBytes, UNDECLARED_ASKED_FROM } from "./transport.js";
