/**
 * The bench's MCP client over a child's stdio: the workspace's one stdio peer
 * (`@resmon/mcp-server/stdio-peer`), with nothing kept but the answers, so the client's own cost
 * stays small and the same for every run, and the opening every MCP client sends first.
 */
import { type PeerReply, StdioPeer } from "@resmon/mcp-server/stdio-peer";

type Json = Record<string, unknown>;

export type RpcReply = PeerReply;

export const INITIALIZE = {
  protocolVersion: "2025-06-18",
  capabilities: {},
  clientInfo: { name: "resmon-bench", version: "1.0.0" },
};

export class StdioRpc extends StdioPeer {
  constructor(command: string, args: readonly string[], env: Record<string, string>) {
    super({ command, args, env, keepOutput: false, stderr: "ignore" });
  }

  /** Frames received, answers and anything else. */
  get frames(): number {
    return this.lines;
  }

  /** initialize, notifications/initialized: what every MCP client does first. */
  async handshake(): Promise<void> {
    await this.request("initialize", INITIALIZE);
    this.notify("notifications/initialized");
  }

  callTool(name: string, args: Json): Promise<RpcReply> {
    return this.request("tools/call", { name, arguments: args });
  }
}
