import { CONTRACT_VERSION, READ_TOOL_COUNT, SERVER_NAME, WRITE_TOOL_COUNT } from "./generated/identity.js";
import { PACKAGE_VERSION } from "./version.js";

/**
 * Who this server says it is in its initialize answer. No zod, no SDK: the start-up front
 * (front.ts) answers initialize with it before either is loaded, and the SDK path uses the same.
 */
export interface HostInfo {
  info: { name: string; version: string; title: string; description: string };
  instructions: string;
  initializeMeta: Record<string, unknown>;
}

export function instructionsText(readOnly: boolean): string {
  return [
    `resmon MCP server, contract ${CONTRACT_VERSION} (package @resmon/mcp-server ${PACKAGE_VERSION}).`,
    "Reads and drives a running resmon desktop app over its local API.",
    "Every tool answers its documented shape or {error, message, detail}.",
    readOnly
      ? `This session is read-only: only the ${READ_TOOL_COUNT} read tools are listed and every write is refused.`
      : `The ${WRITE_TOOL_COUNT} write tools carry requires_confirmation: true; ask the person before calling one.`,
    "To bind a read to one running app, call health, then pass identity.runtime_id as expected_runtime_id.",
  ].join(" ");
}

export function hostInfo(readOnly: boolean): HostInfo {
  return {
    info: {
      name: SERVER_NAME,
      version: PACKAGE_VERSION,
      title: "resmon",
      description: `resmon MCP tool surface, contract ${CONTRACT_VERSION}`,
    },
    instructions: instructionsText(readOnly),
    initializeMeta: {
      contract_version: CONTRACT_VERSION,
      package_version: PACKAGE_VERSION,
      read_only: readOnly,
    },
  };
}
