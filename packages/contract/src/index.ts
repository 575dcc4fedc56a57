export { FIRST_ISSUE_ONLY, parseArguments } from "./arguments.js";
export type { ContractDocument } from "./document.js";
export { contractDocument } from "./document.js";
export type { ErrorCode, ErrorEnvelope, VersionGapDetail } from "./errors.js";
export { ERROR_CODES, isErrorCode, ToolError, VERSION_GAP_CODE } from "./errors.js";
export { EXCLUDED_ROUTES } from "./excluded.js";
export { serverInstructions } from "./instructions.js";
export { toToolJsonSchema } from "./json-schema.js";
export type { ProgressToolName } from "./progress.js";
export { PROGRESS_MAX_PER_SECOND, PROGRESS_TOOLS, reportsProgress } from "./progress.js";
export type { PromptArgumentDef, PromptDef, PromptLine, RenderedPrompt } from "./prompts.js";
export { PROMPT_BY_NAME, PROMPTS, renderPrompt } from "./prompts.js";
export type { ArgumentNeed, ResmonFeature, ResmonLine } from "./resmon-versions.js";
export {
  ARGUMENT_NEEDS,
  argumentFeatures,
  compareVersions,
  FEATURE_KEYS,
  FEATURE_SINCE,
  LINES_OF_RESMON,
  lineOfVersion,
  NOT_IN_THIS_RESMON,
  newerRoutes,
  newestLine,
  OLDEST_RESMON,
  routeShape,
  routeSince,
  SETTING_SINCE,
  toolNeeds,
} from "./resmon-versions.js";
export type { EvidenceFileName, EvidenceResource, ScanUri } from "./resources.js";
export {
  parseScanResourceUri,
  SCAN_EVIDENCE_RESOURCES,
  SCAN_RESOURCE_SCHEME,
  SCAN_RESOURCE_TEMPLATE,
  scanResourceUri,
} from "./resources.js";
export { ROUTES } from "./routes.js";
export type {
  Cite,
  Criterion,
  GapQuery,
  NextAction,
  PlannedQuery,
  QueryKind,
  QueryPlan,
  RankedEntry,
  ScanEnvelope,
  ScanPhase,
  ScreenScore,
} from "./scan-parts.js";
export {
  NEXT_ACTIONS,
  QUERY_KINDS,
  RANK_ROLES,
  REQUIRED_QUERY_KINDS,
  SCAN_PHASES,
} from "./scan-parts.js";
export { NEXT_ACTION_CALLS, SCAN_TEACHING, toolForNextAction } from "./scan-teaching.js";
export { MAX_LIMIT, RUNTIME_ID_PATTERN } from "./schema-parts.js";
export type { KeyClass, SettingsGroup } from "./settings.js";
export {
  APP_SETTINGS_KEYS,
  CREDENTIAL_WORDS,
  classifySettingsKey,
  isSettingsGroup,
  SETTINGS_GROUPS,
  SETTINGS_KEYS_WITHHELD,
  SETTINGS_KEYS_WRITABLE,
  UNREACHABLE_SETTINGS,
} from "./settings.js";
export type { ToolArgs, ToolName, ToolResult } from "./table.js";
export {
  isToolName,
  preApprovedTools,
  READ_TOOLS,
  TOOL_BY_NAME,
  TOOL_NAMES,
  TOOLS,
  WRITE_TOOLS,
} from "./table.js";
export type { AnalyticsView } from "./tools/get_analytics.js";
export { ANALYTICS_VIEW_PATHS } from "./tools/get_analytics.js";
export type { ToolsListEntry, ToolsListOptions } from "./tools-list.js";
export { isListedReadOnly, toolsListEntries } from "./tools-list.js";
export type { HttpMethod, RouteRef, ToolAnnotations, ToolDef, ToolKind } from "./types.js";
export { CONTRACT_VERSION, SERVER_NAME } from "./version.js";
export type { WriteOutcome, WriteOutcomeDetail, WriteToolName } from "./write-outcome.js";
export { isWriteRoute, WRITE_CHECKS, WRITE_ROUTES } from "./write-outcome.js";
