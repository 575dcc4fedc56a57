/**
 * A session's opening (2025: initialize, notifications/initialized, tools/list; 2026-07-28:
 * server/discover, tools/list), answered before the SDK, zod and the contract load, with the SDK
 * server's own answers recorded at build time (gen-first-answers.mjs; `pnpm check` fails when they
 * are stale). Only the plain shapes every harness sends, on which the answers do not depend; anything
 * else, and all after tools/list, goes to the SDK, which replays what the front took (sdk.ts).
 */

import { PROTOCOL_VERSION_KEY as PROTOCOL_VERSION } from "../eras.js";
import { RECORDED } from "../generated/first-answers.js";
import { isPlain, type Json, onlyKeys } from "../json.js";
import { type Id, isId } from "./lines.js";

const CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
const CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";

const isEmpty = (v: unknown) => isPlain(v) && Object.keys(v).length === 0;
const plainClientInfo = (info: unknown) =>
  isPlain(info) &&
  onlyKeys(info, ["name", "version", "title"]) &&
  "name" in info &&
  "version" in info &&
  Object.values(info).every((v) => typeof v === "string");
/** roots (with at most a boolean listChanged), sampling, elicitation, experimental, each empty otherwise. */
const plainCapabilities = (caps: unknown) =>
  isPlain(caps) &&
  onlyKeys(caps, ["roots", "sampling", "elicitation", "experimental"]) &&
  Object.entries(caps).every(
    ([key, cap]) =>
      isEmpty(cap) ||
      (key === "roots" &&
        isPlain(cap) &&
        onlyKeys(cap, ["listChanged"]) &&
        typeof cap.listChanged === "boolean"),
  );

/** initialize params of the plain kind every 2025-era harness sends: its protocolVersion, else undefined. */
function plainInitialize(params: unknown): string | undefined {
  if (!isPlain(params) || !onlyKeys(params, ["protocolVersion", "capabilities", "clientInfo"]))
    return undefined;
  const { protocolVersion: version, capabilities, clientInfo } = params;
  const plain = typeof version === "string" && plainClientInfo(clientInfo) && plainCapabilities(capabilities);
  return plain ? version : undefined;
}

/** params that are exactly a 2026-era `_meta` envelope of the plain kind, for a revision served. */
function plainEnvelope(params: unknown): boolean {
  if (!isPlain(params) || !onlyKeys(params, ["_meta"]) || !isPlain(params._meta)) return false;
  const meta = params._meta;
  return (
    onlyKeys(meta, [PROTOCOL_VERSION, CLIENT_INFO, CLIENT_CAPABILITIES]) &&
    RECORDED.modernVersions.includes(meta[PROTOCOL_VERSION] as string) &&
    (!(CLIENT_INFO in meta) || plainClientInfo(meta[CLIENT_INFO])) &&
    plainCapabilities(meta[CLIENT_CAPABILITIES])
  );
}

/** `take`: one parsed line, answered or kept here (true) or left to the SDK (false, as is all after it). */
export function createFront(readOnly: boolean, write: (frame: string) => void) {
  const legacy = readOnly ? RECORDED.legacy.readOnly : RECORDED.legacy.full;
  const modern = readOnly ? RECORDED.modern.readOnly : RECORDED.modern.full;
  const tools = readOnly ? RECORDED.tools.readOnly : RECORDED.tools.full;
  const listFrame = ([before, after]: [string, string]) => `${before}${tools}${after}`;
  let era: "legacy" | "modern" | undefined;
  let initialized = false;
  let listed = false;
  /** A recorded frame ends just before its id, as the SDK writes it: the id and the closing brace follow. */
  const answer = (prefix: string, id: Id) => write(`${prefix}${JSON.stringify(id)}}\n`);

  return {
    /** tools/list was answered: the session is under way. */
    get listed() {
      return listed;
    },
    take(message: unknown): boolean {
      // Only a request or notification with exactly the JSON-RPC members is the front's to answer.
      if (listed || !isPlain(message) || message.jsonrpc !== "2.0") return false;
      if (!onlyKeys(message, ["jsonrpc", "id", "method", "params"]) || ("id" in message && !isId(message.id)))
        return false;
      const { method, params, id } = message as Json & { id?: Id };
      if (id === undefined) {
        if (method !== "notifications/initialized" || era !== "legacy" || initialized || params !== undefined)
          return false;
        initialized = true;
        return true;
      }
      const asked = method === "initialize" && era === undefined ? plainInitialize(params) : undefined;
      const legacyList = method === "tools/list" && (params === undefined || isEmpty(params));
      const modernAsk = (method === "server/discover" || method === "tools/list") && plainEnvelope(params);
      if (asked !== undefined) {
        const recorded = Object.hasOwn(legacy.initialize, asked) ? legacy.initialize[asked] : undefined;
        answer(recorded ?? legacy.initializeOther, id);
        era = "legacy";
      } else if (legacyList && era === "legacy" && initialized) {
        answer(listFrame(legacy.toolsList), id);
        listed = true;
      } else if (modernAsk && era !== "legacy") {
        answer(method === "server/discover" ? modern.discover : listFrame(modern.toolsList), id);
        era = "modern";
        listed = method === "tools/list";
      } else return false;
      return true;
    },
  };
}
