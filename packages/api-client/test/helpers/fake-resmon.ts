/** A resmon-shaped loopback server: resmon's guard in front of a health route. */
import type { IncomingMessage, ServerResponse } from "node:http";
import { HEALTH_BODY, type LoopbackServer, sendJson, startServer } from "./loopback-server.js";

export const GUARD_SENTENCES = {
  host_refused: "resmon answers only requests addressed to 127.0.0.1 or localhost on its own port.",
  origin_refused: "resmon answers browser requests only from its own window.",
  token_missing: "This request needs resmon's local API token.",
  token_invalid: "The local API token on this request is not this resmon's.",
} as const;

/** resmon's guard, in its order: Host, Origin, then the bearer token. Returns false when it answered. */
export function guardPasses(req: IncomingMessage, res: ServerResponse, port: number, token: string): boolean {
  const refuse = (status: number, reason: keyof typeof GUARD_SENTENCES) => {
    const headers: Record<string, string> = { "cache-control": "no-store" };
    if (status === 401) headers["www-authenticate"] = 'Bearer realm="resmon"';
    sendJson(res, status, { detail: { reason, message: GUARD_SENTENCES[reason] } }, headers);
    return false;
  };
  if (req.headers.host !== `127.0.0.1:${port}` && req.headers.host !== `localhost:${port}`) {
    return refuse(403, "host_refused");
  }
  if (req.headers.origin !== undefined) return refuse(403, "origin_refused");
  const auth = req.headers.authorization;
  if (auth === undefined) return refuse(401, "token_missing");
  if (auth !== `Bearer ${token}`) return refuse(401, "token_invalid");
  return true;
}

export async function startFakeResmon(token: string, health: unknown = HEALTH_BODY): Promise<LoopbackServer> {
  const box = { port: 0 };
  const server = await startServer((req, res) => {
    if (!guardPasses(req, res, box.port, token)) return;
    if (req.url?.split("?")[0] === "/api/health") sendJson(res, 200, health);
    else if (req.url === "/api/routines") sendJson(res, 200, []);
    else sendJson(res, 404, { detail: "Not Found" });
  });
  box.port = server.port;
  return server;
}
