export { Backend, type BackendOptions, type DiscoverFn, refusalToError } from "./backend.js";
export { ToolError, toEnvelope } from "./errors.js";
export { instructionsText, isReadOnly } from "./host-info.js";
export {
  createResmonTools,
  createServer,
  type ResmonTools,
  type ServerOptions,
  type ToolOutcome,
} from "./server.js";
export { PACKAGE_VERSION } from "./version.js";
