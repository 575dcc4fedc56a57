/**
 * The opening of a session, answered before the MCP SDK, zod, the contract's schemas and the HTTP
 * client are loaded. A harness starts this process for every session and waits for the opening
 * (2025 era: initialize, notifications/initialized, tools/list; 2026-07-28: server/discover and
 * tools/list, each with its `_meta` envelope) before anything else. Those answers are the SDK
 * server's own, recorded at build time (generated/first-answers.ts, by gen-first-answers.mjs; `pnpm
 * check` fails when the SDK would now answer differently). The front takes only the plain shapes
 * every harness sends; anything else, and everything after tools/list, goes to the SDK (stdio.ts
 * hands it the messages the front took, so the SDK's state is what it would have been).
 */
import { RECORDED } from "../generated/first-answers.js";
import { isPlain, onlyKeys } from "./lines.js";

type Json = Record<string, unknown>;
type Id = string | number;

const PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
const CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
const CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";

const isEmptyObject = (v: unknown) => isPlain(v) && Object.keys(v).length === 0;

function plainClientInfo(info: unknown): boolean {
  if (!isPlain(info) || !onlyKeys(info, ["name", "version", "title"])) return false;
  return (
    typeof info.name === "string" &&
    typeof info.version === "string" &&
    Object.values(info).every((v) => typeof v === "string")
  );
}

/** Client capabilities of the plain kind: the answers recorded do not depend on them. */
function plainCapabilities(capabilities: unknown): boolean {
  if (!isPlain(capabilities) || !onlyKeys(capabilities, ["roots", "sampling", "elicitation", "experimental"]))
    return false;
  return Object.entries(capabilities).every(([key, cap]) => {
    if (!isPlain(cap)) return false;
    const plainRoots =
      key === "roots" &&
      onlyKeys(cap, ["listChanged"]) &&
      (cap.listChanged === undefined || typeof cap.listChanged === "boolean");
    return plainRoots || isEmptyObject(cap);
  });
}

/** initialize params of the plain kind every 2025-era harness sends: its protocolVersion, else undefined. */
function plainInitialize(params: unknown): string | undefined {
  if (!isPlain(params) || !onlyKeys(params, ["protocolVersion", "capabilities", "clientInfo"]))
    return undefined;
  const { protocolVersion, capabilities, clientInfo } = params;
  if (typeof protocolVersion !== "string" || !plainClientInfo(clientInfo) || !plainCapabilities(capabilities))
    return undefined;
  return protocolVersion;
}

/** params that are exactly a 2026-era `_meta` envelope of the plain kind, for a revision served. */
function plainEnvelope(params: unknown): boolean {
  if (!isPlain(params) || !onlyKeys(params, ["_meta"]) || !isPlain(params._meta)) return false;
  const meta = params._meta;
  if (!onlyKeys(meta, [PROTOCOL_VERSION, CLIENT_INFO, CLIENT_CAPABILITIES])) return false;
  const version = meta[PROTOCOL_VERSION];
  if (typeof version !== "string" || !RECORDED.modernVersions.includes(version)) return false;
  if (CLIENT_INFO in meta && !plainClientInfo(meta[CLIENT_INFO])) return false;
  return plainCapabilities(meta[CLIENT_CAPABILITIES]);
}

const noParams = (params: unknown) => params === undefined || isEmptyObject(params);

export interface Front {
  /**
   * A plain request or notification (the line reader's fast check took it): answered or kept here
   * (true), or left to the SDK (false, and from then on every message goes there).
   */
  take(message: Json): boolean;
  /** tools/list was answered: the session is under way. */
  readonly listed: boolean;
}

export function createFront(readOnly: boolean, write: (frame: string) => void): Front {
  const legacy = readOnly ? RECORDED.legacy.readOnly : RECORDED.legacy.full;
  const modern = readOnly ? RECORDED.modern.readOnly : RECORDED.modern.full;
  const tools = readOnly ? RECORDED.tools.readOnly : RECORDED.tools.full;
  const listFrame = ([before, after]: [string, string]) => `${before}${tools}${after}`;
  let era: "legacy" | "modern" | undefined;
  let initialized = false;
  let listed = false;
  /** The recorded frame up to its id, as the SDK writes it: the id and the closing brace follow. */
  const answer = (prefix: string, id: Id) => write(`${prefix}${JSON.stringify(id)}}\n`);

  return {
    get listed() {
      return listed;
    },
    take(message) {
      if (listed) return false;
      const { method, params } = message;
      const id = message.id as Id | undefined;
      if (id === undefined) {
        if (method !== "notifications/initialized" || era !== "legacy" || initialized || params !== undefined)
          return false;
        initialized = true;
        return true;
      }
      if (method === "initialize" && era === undefined) {
        const requested = plainInitialize(params);
        if (requested === undefined) return false;
        answer(
          Object.hasOwn(legacy.initialize, requested)
            ? (legacy.initialize[requested] as string)
            : legacy.initializeOther,
          id,
        );
        era = "legacy";
        return true;
      }
      if (method === "tools/list" && era === "legacy" && initialized && noParams(params)) {
        answer(listFrame(legacy.toolsList), id);
        listed = true;
        return true;
      }
      if (
        (method === "server/discover" || method === "tools/list") &&
        era !== "legacy" &&
        plainEnvelope(params)
      ) {
        answer(method === "server/discover" ? modern.discover : listFrame(modern.toolsList), id);
        era = "modern";
        listed = method === "tools/list";
        return true;
      }
      return false;
    },
  };
}
