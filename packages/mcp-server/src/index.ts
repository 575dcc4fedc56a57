export { Backend, type DiscoverFn } from "./backend/adapter.js";
export { instructionsText } from "./pipeline/host-info.js";
export { createResmonTools, createServer, type ResmonTools, type ServerOptions } from "./pipeline/server.js";
export { PACKAGE_VERSION } from "./version.js";
