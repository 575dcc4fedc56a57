import { type CallToolResult, Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { createServer, type ServerOptions } from "../../src/server.js";

/** An SDK Client talking to an in-process server over InMemoryTransport. */
export async function connectInMemory(
  options: ServerOptions,
): Promise<{ client: Client; close: () => Promise<void> }> {
  const { server } = createServer(options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  // The server's one session, served by the SDK's dual-era entry as the bin serves stdio.
  server.serve(serverSide);
  const client = new Client({ name: "test", version: "0.0.0" });
  await client.connect(clientSide);
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** The JSON a call answered: its structuredContent on success, its text envelope on error. */
export function parsed(result: unknown): Record<string, unknown> {
  const r = result as CallToolResult;
  const first = r.content[0];
  if (first?.type !== "text") throw new Error("no text content");
  return JSON.parse(first.text) as Record<string, unknown>;
}

export function isError(result: unknown): boolean {
  return (result as CallToolResult).isError === true;
}
