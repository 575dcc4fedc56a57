/** A real node:http server on 127.0.0.1 that records what arrives, for tests. */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  body: string;
  remotePort: number | undefined;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, received: Received) => void;

export interface LoopbackServer {
  port: number;
  received: Received[];
  connections: number;
  close(): Promise<void>;
}

export async function startServer(handler: Handler): Promise<LoopbackServer> {
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  const state = { connections: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const entry: Received = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        body: Buffer.concat(chunks).toString("utf8"),
        remotePort: req.socket.remotePort,
      };
      received.push(entry);
      handler(req, res, entry);
    });
  });
  server.on("connection", (socket: Socket) => {
    state.connections += 1;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    received,
    get connections() {
      return state.connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** A port that nothing listens on (bound, read, released). */
export async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export const TOKEN = "tok_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopq";

export const HEALTH_BODY = {
  status: "ok",
  identity: {
    contract_version: 1,
    runtime_id: "a557b1b5-0382-4f28-a866-3d5bb2700f73",
    schema_version: 21,
    corpus_id: null,
    build_id: null,
  },
  pid: 4242,
  started_at: "2026-11-30T06:13:28.630145+00:00",
  version: "1.8.3",
  embeddings: null,
};
