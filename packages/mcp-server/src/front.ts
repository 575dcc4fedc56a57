/**
 * The start-up front of the stdio server. A harness starts this process for every session and
 * waits for initialize and tools/list before anything else, so those two are answered here, from
 * precomputed text (generated/first-answers.ts), before the MCP SDK, zod, the contract's schemas
 * and the HTTP client are loaded. Right after tools/list, or at the first message of any other
 * kind, the full SDK server is loaded and takes over: it is fed the initialize exchange it missed
 * (its answer to that replay is dropped, since the front already answered), then every later line
 * unchanged. Only exact, well-formed initialize and tools/list requests are answered here; anything
 * unusual goes to the SDK path, so its validation and error answers are the ones a client sees.
 */
import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import {
  LATEST_PROTOCOL_VERSION,
  READ_ONLY_TOOLS_LIST_JSON,
  SUPPORTED_PROTOCOL_VERSIONS,
  TOOLS_LIST_JSON,
} from "./generated/first-answers.js";
import { hostInfo } from "./host-info.js";
import { isPlain, isPlainRequestOrNotification } from "./jsonrpc-lines.js";

type Json = Record<string, unknown>;

/** The SDK server once loaded: the front pushes stdin text to it as it arrives. */
export interface FullServer {
  push(text: string): void;
  close(): Promise<void>;
}
type Id = string | number;

export interface FrontOptions {
  readOnly: boolean;
  input: Readable;
  /** Writes one frame to stdout (scrubbed). */
  write(frame: string): void;
  /**
   * Loads the SDK server; every frame it writes goes through `filter` (which answers "" for a frame
   * to drop). Resolves with where to push decoded stdin text from then on, and how to close it.
   */
  loadFull(filter: (frame: string) => string): Promise<FullServer>;
  /** Called once stdin has ended (after the full server, if loaded, was closed) or loading failed. */
  onEnd(): void;
}

/** The longest line the front buffers before it leaves the line to the SDK path's limits. */
const MAX_FRONT_LINE = 1024 * 1024;

const onlyKeys = (v: Json, allowed: readonly string[]) => Object.keys(v).every((k) => allowed.includes(k));

/** A request the front may answer: the exact JSON-RPC 2.0 shape the stdio transport's own check takes. */
function requestOf(value: unknown): { id: Id; method: string; params: unknown } | undefined {
  if (!isPlainRequestOrNotification(value)) return undefined;
  const request = value as { id?: Id; method: string; params?: unknown };
  return request.id === undefined
    ? undefined
    : { id: request.id, method: request.method, params: request.params };
}

function isEmptyObject(v: unknown): boolean {
  return isPlain(v) && Object.keys(v).length === 0;
}

/** initialize params of the plain kind every harness sends; anything richer goes to the SDK. */
function plainInitialize(params: unknown): string | undefined {
  if (!isPlain(params) || !onlyKeys(params, ["protocolVersion", "capabilities", "clientInfo"]))
    return undefined;
  const { protocolVersion, capabilities, clientInfo } = params;
  if (typeof protocolVersion !== "string" || !isPlain(capabilities) || !isPlain(clientInfo)) return undefined;
  if (!onlyKeys(clientInfo, ["name", "version", "title"])) return undefined;
  if (!Object.values(clientInfo).every((v) => typeof v === "string")) return undefined;
  if (typeof clientInfo.name !== "string" || typeof clientInfo.version !== "string") return undefined;
  if (!onlyKeys(capabilities, ["roots", "sampling", "elicitation", "experimental"])) return undefined;
  for (const [key, cap] of Object.entries(capabilities)) {
    if (!isPlain(cap)) return undefined;
    const plainRoots =
      key === "roots" &&
      onlyKeys(cap, ["listChanged"]) &&
      (cap.listChanged === undefined || typeof cap.listChanged === "boolean");
    if (!plainRoots && !isEmptyObject(cap)) return undefined;
  }
  return protocolVersion;
}

/** The initialize result exactly as the SDK path builds it (the SDK's answer plus our _meta). */
function initializeFrame(id: Id, requested: string, readOnly: boolean): string {
  const host = hostInfo(readOnly);
  const protocolVersion = SUPPORTED_PROTOCOL_VERSIONS.includes(requested)
    ? requested
    : LATEST_PROTOCOL_VERSION;
  const result = {
    protocolVersion,
    capabilities: { tools: {} },
    serverInfo: host.info,
    instructions: host.instructions,
    _meta: host.initializeMeta,
  };
  return `${JSON.stringify({ result, jsonrpc: "2.0", id })}\n`;
}

function toolsListFrame(id: Id, readOnly: boolean): string {
  const tools = readOnly ? READ_ONLY_TOOLS_LIST_JSON : TOOLS_LIST_JSON;
  return `{"result":{"tools":${tools}},"jsonrpc":"2.0","id":${JSON.stringify(id)}}\n`;
}

export interface Front {
  /** Close the full server if it was loaded. */
  close(): Promise<void>;
}

export function startFront(options: FrontOptions): Front {
  const decoder = new StringDecoder("utf8");
  let state: "front" | "loading" | "full" = "front";
  /** The unfinished line, as chunks: joined only once its newline comes (no quadratic re-scan). */
  let parts: string[] = [];
  let pendingLength = 0;
  /** Lines the SDK must see first: the initialize exchange the front answered. */
  const replay: string[] = [];
  /** Lines that arrived while the SDK was loading. */
  const queued: string[] = [];
  /** The id whose SDK answer (to the replayed initialize) is dropped. */
  let swallowId: Id | undefined;
  let initialized = false;
  let full: FullServer | undefined;
  let ended = false;

  const filter = (frame: string): string => {
    if (swallowId === undefined) return frame;
    try {
      const message = JSON.parse(frame) as Json;
      if (message.id === swallowId && !("method" in message)) {
        swallowId = undefined;
        return "";
      }
    } catch {
      // Not one whole frame: pass it on untouched.
    }
    return frame;
  };

  const handover = async () => {
    if (state !== "front") return;
    state = "loading";
    try {
      full = await options.loadFull(filter);
    } catch {
      process.exitCode = 1;
      options.onEnd();
      return;
    }
    state = "full";
    for (const line of [...replay, ...queued]) full.push(line);
    replay.length = 0;
    queued.length = 0;
    if (pendingLength > 0) full.push(parts.join(""));
    parts = [];
    pendingLength = 0;
    if (ended) await finish();
  };

  const finish = async () => {
    if (state === "loading") return; // handover finishes it
    if (full) {
      await full.close().catch(() => undefined);
    }
    options.onEnd();
  };

  /** true when the front answered or kept the line; false hands it (and all after it) to the SDK. */
  const answer = (raw: string): boolean => {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.trim() === "") return true;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return false;
    }
    if (
      isPlain(value) &&
      value.method === "notifications/initialized" &&
      onlyKeys(value, ["jsonrpc", "method"])
    ) {
      if (value.jsonrpc !== "2.0" || swallowId === undefined) return false;
      replay.push(`${raw}\n`);
      initialized = true;
      return true;
    }
    const request = requestOf(value);
    if (!request) return false;
    if (request.method === "initialize" && swallowId === undefined && replay.length === 0) {
      const requested = plainInitialize(request.params);
      if (requested === undefined) return false;
      options.write(initializeFrame(request.id, requested, options.readOnly));
      replay.push(`${raw}\n`);
      swallowId = request.id;
      return true;
    }
    if (
      request.method === "tools/list" &&
      initialized &&
      (request.params === undefined || isEmptyObject(request.params))
    ) {
      options.write(toolsListFrame(request.id, options.readOnly));
      // The session is under way: load the rest now, while the harness reads the list.
      setImmediate(() => void handover());
      return true;
    }
    return false;
  };

  options.input.on("data", (chunk: Buffer | string) => {
    const text = typeof chunk === "string" ? chunk : decoder.write(chunk);
    if (state === "full") {
      full?.push(text);
      return;
    }
    if (!text.includes("\n")) {
      parts.push(text);
      pendingLength += text.length;
      if (state === "front" && pendingLength > MAX_FRONT_LINE) void handover();
      return;
    }
    let pending = parts.join("") + text;
    let nl = pending.indexOf("\n");
    while (nl >= 0) {
      const raw = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      if (state === "front" && answer(raw)) {
        nl = pending.indexOf("\n");
        continue;
      }
      queued.push(`${raw}\n`);
      void handover();
      nl = pending.indexOf("\n");
    }
    parts = pending ? [pending] : [];
    pendingLength = pending.length;
    if (state === "front" && pendingLength > MAX_FRONT_LINE) void handover();
  });
  options.input.on("end", () => {
    ended = true;
    if (state === "front") options.onEnd();
    else void finish();
  });
  return {
    close: async () => {
      if (full) await full.close().catch(() => undefined);
    },
  };
}
