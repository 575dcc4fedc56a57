import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

export type GuardReason = "host_refused" | "origin_refused" | "token_missing" | "token_invalid";

export interface GuardRefusal {
  status: 401 | 403;
  reason: GuardReason;
  body: { detail: { reason: GuardReason; message: string } };
  headers: Record<string, string>;
}

const MESSAGES: Record<GuardReason, string> = {
  host_refused: "resmon answers only requests addressed to 127.0.0.1 or localhost on its own port.",
  origin_refused: "resmon answers browser requests only from its own window.",
  token_missing: "This request needs resmon's local API token.",
  token_invalid: "The local API token on this request is not this resmon's.",
};

/** The renderer origin of the packaged app; any other Origin is refused. */
export const RENDERER_ORIGIN = "app://resmon";

function refusal(reason: GuardReason): GuardRefusal {
  const status = reason === "token_missing" || reason === "token_invalid" ? 401 : 403;
  const headers: Record<string, string> = { "cache-control": "no-store" };
  if (status === 401) headers["www-authenticate"] = 'Bearer realm="resmon"';
  return { status, reason, body: { detail: { reason, message: MESSAGES[reason] } }, headers };
}

function sameToken(offered: string, held: string): boolean {
  const a = Buffer.from(offered);
  const b = Buffer.from(held);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** resmon's guard, in resmon's order: Host, then Origin, then the bearer token. No route is exempt. */
export function checkGuard(
  req: IncomingMessage,
  port: number,
  token: string,
  refuseAll: boolean,
): GuardRefusal | null {
  const host = req.headers.host;
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) return refusal("host_refused");
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== RENDERER_ORIGIN) return refusal("origin_refused");
  const raw = req.headersDistinct.authorization;
  if (!raw || raw.length === 0) return refusal("token_missing");
  if (raw.length > 1) return refusal("token_invalid");
  const match = /^Bearer ([A-Za-z0-9_-]{43,128})$/.exec(raw[0] ?? "");
  if (!match?.[1] || refuseAll || !sameToken(match[1], token)) return refusal("token_invalid");
  return null;
}
