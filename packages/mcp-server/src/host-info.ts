import { CONTRACT_VERSION, INSTRUCTIONS, SERVER_NAME } from "./generated/identity.js";
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

/** The server's identity line, then the contract's instructions (serverInstructions), generated into identity.ts. */
export function instructionsText(readOnly: boolean): string {
  return [
    `resmon MCP server, contract ${CONTRACT_VERSION} (package @resmon/mcp-server ${PACKAGE_VERSION}).`,
    readOnly ? INSTRUCTIONS.readOnly : INSTRUCTIONS.full,
  ].join("\n");
}

export function hostInfo(readOnly: boolean): HostInfo {
  return {
    info: {
      name: SERVER_NAME,
      version: PACKAGE_VERSION,
      title: "resmon",
      description: `resmon MCP tool surface, contract ${CONTRACT_VERSION}, for resmon 1.6 and later`,
    },
    instructions: instructionsText(readOnly),
    initializeMeta: {
      contract_version: CONTRACT_VERSION,
      package_version: PACKAGE_VERSION,
      read_only: readOnly,
    },
  };
}
