import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * contract/resmon-api.openapi.json, the API description the client is generated from. Its own module
 * so that the drift check and api:update, which only read it, do not load openapi-typescript and
 * TypeScript (most of the drift command's start: 1.4 s of CPU, 46 s of wall time at load 23).
 */
export const API_DESCRIPTION = resolve(
  dirname(fileURLToPath(import.meta.url)),
  "../../contract/resmon-api.openapi.json",
);
