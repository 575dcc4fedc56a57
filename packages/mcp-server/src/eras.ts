/**
 * Which protocol era a stdio session speaks and what the 2026-07-28 schema or docs/protocol.md
 * refuses in it, though the SDK's entry would serve it. Plain JSON: protocol/sdk.ts frames the answer.
 */
import { isPlain, type Json } from "./json.js";

/** The 2026-era revisions served per request (the `_meta` envelope's protocolVersion). */
export const MODERN_PROTOCOL_VERSIONS: readonly string[] = ["2026-07-28"];
export const PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion";

/** The revision a request's envelope names, "" for a request with none, undefined for a notification. */
function claimOf(message: Json): string | undefined {
  if (!("id" in message)) return undefined;
  const meta = isPlain(message.params) && isPlain(message.params._meta) ? message.params._meta : {};
  return typeof meta[PROTOCOL_VERSION_KEY] === "string" ? meta[PROTOCOL_VERSION_KEY] : "";
}

/** Why a request is refused: a revision not served (-32022) or, on 2026-07-28, no envelope (-32602). */
export type EraRefusal = { requested: string } | { missingEnvelope: string };

/**
 * One session's era, fixed by its first request. `refusal`: a revision not served, on any request
 * (the SDK checks only the first); after a 2026-07-28 opening, even `server/discover` (to it a probe it
 * may fall back from), `initialize` and a request without envelope.
 */
export function createEraCheck() {
  let era: "legacy" | "modern" | undefined;
  return {
    /** A message handed to the SDK: the first request fixes the era. */
    seen(message: Json): void {
      if ("id" in message) era ??= claimOf(message) ? "modern" : "legacy";
    },
    refusal(message: Json): EraRefusal | undefined {
      const claim = claimOf(message);
      const params = isPlain(message.params) ? message.params : {};
      let requested = claim && !MODERN_PROTOCOL_VERSIONS.includes(claim) ? claim : undefined;
      if (era === "modern" && claim === "") {
        if (message.method !== "initialize")
          return { missingEnvelope: "the per-request envelope is required on protocol revision 2026-07-28" };
        requested = typeof params.protocolVersion === "string" ? params.protocolVersion : "unknown";
      }
      return requested === undefined ? undefined : { requested };
    },
  };
}
