import { CONTRACT_VERSION, INSTRUCTIONS, SERVER_NAME } from "./generated/opening.js";
import { PACKAGE_VERSION } from "./version.js";

/**
 * Who this server says it is in its opening answer (initialize, server/discover): its name and
 * version, and the contract it serves in its description and instructions.
 */
export interface HostInfo {
  info: { name: string; version: string; title: string; description: string };
  instructions: string;
}

/** The server's identity line, then the contract's instructions (serverInstructions, as generated). */
export function instructionsText(readOnly: boolean): string {
  return [
    `resmon MCP server, contract ${CONTRACT_VERSION} (package @resmon/mcp-server ${PACKAGE_VERSION}).`,
    INSTRUCTIONS[readOnly ? "readOnly" : "full"],
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
  };
}
