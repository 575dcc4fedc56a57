export { Backend, type DiscoverFn } from "./backend/adapter.js";
export { type Config, readConfig, VARIABLES, type Variable, variablesTable } from "./config.js";
export { instructionsText } from "./host-info.js";
export { createResmonTools, createServer, type ResmonTools, type ServerOptions } from "./server.js";
export { PACKAGE_VERSION } from "./version.js";
