/**
 * Finding the resmon a harness was pointed at (the spec's "Port discovery" and "The local API
 * token"). RESMON_PORT, else the port file; then that port's token from the state directory; then
 * an authenticated GET /api/health. A named port is never widened and nothing named is a refusal.
 */
import { randomBytes } from "node:crypto";
import { connect } from "node:net";
import {
  createResmonClient,
  DEFAULT_MAX_JSON_VALUES,
  isValidPort,
  loopbackUrl,
  type ResmonClient,
} from "./client.js";
import type { ApiError } from "./errors.js";
import { httpErrorFrom, parseSuccessBody } from "./http-body.js";
import { type IdentityResult, parseIdentity } from "./identity.js";
import { buildRequest } from "./request.js";
import { FILE_PROBLEM_TEXT, type FileProblem, readSmallFile } from "./small-file.js";
import {
  currentHomedir,
  type Env,
  type PortFileSource,
  resolvePortFile,
  resolveStateDir,
  tokenFileFor,
} from "./state-paths.js";
import { Transport } from "./transport.js";

export interface DiscoverOptions {
  env?: Record<string, string | undefined>;
  platform?: NodeJS.Platform;
  homedir?: string;
  /** Timeout for the health probe (connect and total), and for the wrong-token check before it. Default 3000. */
  probeTimeoutMs?: number;
  /** Total timeout per request of the returned client. Default 30000. */
  timeoutMs?: number;
  /** Compared with the reported identity (never sent by the probe); see identityMatchesExpected. */
  expectedRuntimeId?: string;
  /** The largest answer body read, by the probe and the returned client. Default 16 MiB. */
  maxBodyBytes?: number;
  /**
   * Called with the token as soon as it is read, before any request carries it: the value the client
   * sends, so a scrubber learns that one and not a later read of a file that may have changed since.
   */
  onToken?: (token: string) => void;
}

export type Discovery =
  | {
      ok: true;
      client: ResmonClient;
      baseUrl: string;
      port: number;
      stateDir: string;
      portSource: "RESMON_PORT" | "port_file";
      portFile?: string;
      health: unknown;
      identity: IdentityResult;
      /** Present only when expectedRuntimeId was given: whether identity.runtime_id equals it. */
      identityMatchesExpected?: boolean;
    }
  | { ok: false; refusal: DiscoveryRefusal };

export type RefusalKind =
  | "nothing_named"
  | "bad_port"
  | "not_answering"
  | "unusable_port_file"
  | "no_token_file"
  | "unusable_token_file"
  | "token_refused"
  | "not_resmon"
  | "unguarded_resmon";

export interface DiscoveryRefusal {
  kind: RefusalKind;
  /** A sentence for a person; never the token. */
  message: string;
  /** Full URLs tried, e.g. "http://127.0.0.1:51734"; [] when nothing was named. */
  tried: string[];
  /** The port-file path discovery looked at (or would have, when RESMON_PORT named the port). */
  portFile: string;
  port?: number;
  tokenFile?: string;
  stateDir: string;
  /** For unusable_port_file / unusable_token_file: what the file is instead of a small regular file. */
  fileProblem?: FileProblem;
}

export const DEFAULT_PROBE_TIMEOUT_MS = 3_000;

/** The spec's sentence for a named port that did not answer. */
export const NOT_RUNNING_MESSAGE = "resmon is not running. Start the resmon app and try again.";

/**
 * The same refusal worded for whoever holds this client (an app, a script): what discover() does
 * when nothing names a port. The MCP server answers with the spec's sentence (nothingNamedMessage)
 * instead, in its own words for a harness.
 */
export function nothingNamedForClient(portFile: string): string {
  return (
    "No resmon was named, so discover() did not look for one and did not guess. Two things name one: " +
    `the RESMON_PORT environment variable, and the port file a running resmon writes at ${portFile}. ` +
    "Neither named a port. Guessing one could reach whichever resmon happens to be listening there -- " +
    "possibly another installation, over another database. Start resmon and try again; if it is already " +
    "running, set RESMON_PORT to its port (or pass it in `env`), or point RESMON_PORT_FILE at the port " +
    "file that instance writes."
  );
}

/** The spec's sentence when nothing named a port, with <path> replaced by the port file looked at. */
export function nothingNamedMessage(portFile: string): string {
  return (
    "No resmon was named, so this server did not look for one and did not guess. Two things name one: " +
    `the RESMON_PORT environment variable, and the port file a running resmon writes at ${portFile}. ` +
    "Neither named a port. Guessing one would attach this harness to whichever resmon happens to be listening " +
    "there -- possibly another installation, over another database -- and answering about the wrong corpus is " +
    "worse than not answering. Start resmon and try again; if it is already running, set RESMON_PORT to its " +
    "port, or point RESMON_PORT_FILE at the port file that instance writes."
  );
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43,128}$/;
const PORT_TEXT = /^\d{1,5}$/;

type NamedPort =
  | { ok: true; port: number; source: "RESMON_PORT" | "port_file"; namedBy: string }
  | {
      ok: false;
      kind: "nothing_named" | "bad_port" | "unusable_port_file";
      message: string;
      fileProblem?: FileProblem;
    };

function parsePort(text: string): number | undefined {
  const trimmed = text.trim();
  if (!PORT_TEXT.test(trimmed)) return undefined;
  const port = Number.parseInt(trimmed, 10);
  return isValidPort(port) ? port : undefined;
}

/** Echo a short value only: a long one could be anything, a secret included. */
function quoteShort(value: string): string {
  const trimmed = value.trim();
  return trimmed.length <= 12 ? `"${trimmed}"` : "a value";
}

function describePortFile(path: string, source: PortFileSource): string {
  if (source === "RESMON_PORT_FILE") return `the port file ${path} (RESMON_PORT_FILE)`;
  if (source === "RESMON_DB_PATH") return `the port file ${path} (beside RESMON_DB_PATH)`;
  return `the port file ${path} (beside the packaged app's default database)`;
}

async function namePort(env: Env, portFile: { path: string; source: PortFileSource }): Promise<NamedPort> {
  const fromEnv = env.RESMON_PORT;
  if (fromEnv !== undefined && fromEnv.trim().length > 0) {
    const port = parsePort(fromEnv);
    if (port === undefined) {
      return {
        ok: false,
        kind: "bad_port",
        message: `RESMON_PORT is set to ${quoteShort(fromEnv)}, which is not a port (an integer from 1 to 65535). No other port was tried.`,
      };
    }
    return { ok: true, port, source: "RESMON_PORT", namedBy: "RESMON_PORT" };
  }
  const read = await readSmallFile(portFile.path);
  if (!read.ok) {
    if (read.problem === "missing") {
      return { ok: false, kind: "nothing_named", message: nothingNamedForClient(portFile.path) };
    }
    if (read.problem === "unreadable") {
      return {
        ok: false,
        kind: "bad_port",
        message: `${describePortFile(portFile.path, portFile.source)} exists but could not be read${read.code ? ` (${read.code})` : ""}. No other port was tried.`,
      };
    }
    const advice =
      read.problem === "timeout"
        ? `${SLOW_DISK} no port was taken from it and no other port was tried; the next call reads it again.`
        : "A port file is a small regular file resmon writes; no port was taken from it and no other port was tried.";
    return {
      ok: false,
      kind: "unusable_port_file",
      fileProblem: read.problem,
      message: `${describePortFile(portFile.path, portFile.source)} ${FILE_PROBLEM_TEXT[read.problem]}. ${advice}`,
    };
  }
  const port = parsePort(read.text);
  if (port === undefined) {
    return {
      ok: false,
      kind: "bad_port",
      message: `${describePortFile(portFile.path, portFile.source)} does not hold a port (an integer from 1 to 65535). No other port was tried.`,
    };
  }
  return { ok: true, port, source: "port_file", namedBy: describePortFile(portFile.path, portFile.source) };
}

/**
 * A read that ran out of time says nothing against the file, and what was measured is this
 * process's wait (readSmallFile), so the sentence names both causes that fit it, not the disk alone.
 */
const SLOW_DISK =
  "Nothing is known against the file itself: a stalled disk or network filesystem does this, and so does a machine too loaded to run the read; so";

/** What to do about a token file that could not be used, by why. */
function tokenFileAdvice(problem: FileProblem | undefined): string {
  if (problem === "timeout") return `${SLOW_DISK} nothing was sent; the next call reads it again.`;
  if (problem !== undefined) {
    return "resmon writes its token as a small regular file, owner-only; whatever is at that path was put there by something else: remove it and restart resmon.";
  }
  return "A running resmon writes api-token-<port> in its state directory; if that instance uses another state directory, set RESMON_STATE_DIR to it.";
}

type TokenRead =
  | { ok: true; token: string }
  | { ok: false; why: string; fileProblem?: FileProblem; missing?: true };

async function readToken(tokenFile: string): Promise<TokenRead> {
  const read = await readSmallFile(tokenFile);
  if (!read.ok) {
    if (read.problem === "missing") return { ok: false, why: "there is no token file", missing: true };
    if (read.problem === "unreadable") {
      return { ok: false, why: `the token file could not be read (${read.code ?? "error"})` };
    }
    return { ok: false, why: `the token file ${FILE_PROBLEM_TEXT[read.problem]}`, fileProblem: read.problem };
  }
  const token = read.text.trim();
  if (!TOKEN_SHAPE.test(token)) return { ok: false, why: "the token file does not hold a token" };
  return { ok: true, token };
}

/**
 * Whether anything accepts a TCP connection on the port (no HTTP request is sent). Asked when there is
 * no token to send, so a port nothing listens on is reported as that, not as a state-directory problem.
 */
function acceptsConnections(port: number, timeoutMs: number): Promise<"accepted" | "refused" | "unknown"> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    const done = (answer: "accepted" | "refused" | "unknown") => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(timeoutMs, () => done("unknown"));
    socket.once("connect", () => done("accepted"));
    socket.once("error", (error: NodeJS.ErrnoException) =>
      done(error.code === "ECONNREFUSED" ? "refused" : "unknown"),
    );
  });
}

/** The 401 sentence, by what resmon said: only token_invalid means the token is stale. */
function tokenRefusedMessage(
  url: string,
  namedBy: string,
  tokenFile: string,
  reason: string | undefined,
): string {
  const refused = `The server at ${url}, named by ${namedBy}, refused the token from ${tokenFile}`;
  if (reason === "token_invalid") {
    return (
      `${refused} (token_invalid). ` +
      "Every resmon start mints a new token, so the file may be left from an earlier run, or belong to " +
      "another instance's state directory: restart resmon, or set RESMON_STATE_DIR to the state directory " +
      "of the instance on this port."
    );
  }
  if (reason === "token_missing") {
    return (
      `${refused}: it answered token_missing, saying no token reached it, although this client sent one. ` +
      "Something between this client and that port may drop the Authorization header, or what answers " +
      "there is not the resmon you mean. No other port was tried."
    );
  }
  return `${refused} with HTTP 401 and did not say why. No other port was tried.`;
}

function probeFailure(
  error: ApiError,
  url: string,
  namedBy: string,
  tokenFile: string,
): Omit<DiscoveryRefusal, "portFile" | "stateDir" | "port" | "tried" | "tokenFile"> {
  switch (error.kind) {
    case "transport":
      if (error.message.includes("connection refused")) {
        return {
          kind: "not_answering",
          message: `${NOT_RUNNING_MESSAGE} Nothing accepted a connection at ${url}, named by ${namedBy}. No other port was tried.`,
        };
      }
      // Something was there: say what happened, not that resmon is not running.
      return {
        kind: "not_answering",
        message: `No answer to GET /api/health came from ${url}, named by ${namedBy}: ${error.message} No other port was tried.`,
      };
    case "timeout":
      return {
        kind: "not_answering",
        message: `Nothing at ${url}, named by ${namedBy}, answered GET /api/health within ${error.timeoutMs} ms. No other port was tried.`,
      };
    case "too_large":
      return {
        kind: "not_resmon",
        message: `Something answered GET /api/health at ${url}, named by ${namedBy}, with more than a health report could hold: ${error.message} No other port was tried.`,
      };
    case "http":
      if (error.status === 401) {
        return { kind: "token_refused", message: tokenRefusedMessage(url, namedBy, tokenFile, error.reason) };
      }
      return {
        kind: "not_resmon",
        message:
          `Something answered at ${url}, named by ${namedBy}, with HTTP ${error.status}` +
          `${error.reason ? ` (${error.reason})` : ""} instead of resmon's health report. No other port was tried.`,
      };
    case "malformed":
      return {
        kind: "not_resmon",
        message: `Something answered at ${url}, named by ${namedBy}, but its answer to GET /api/health is not resmon's (${error.message}) No other port was tried.`,
      };
  }
}

function looksLikeResmonHealth(body: unknown): boolean {
  return (
    body !== null &&
    typeof body === "object" &&
    !Array.isArray(body) &&
    typeof (body as Record<string, unknown>).status === "string"
  );
}

/** A health report is small: 64 KiB is far more than any resmon's. */
const UNGUARDED_PROBE_MAX_BYTES = 64 * 1024;

/** What the port answered one GET /api/health (with no token, or with a random wrong one). */
type ProbeAnswer =
  | { answer: "refused" }
  /** A resmon-shaped health report; `identity` when it carried one (only a guarded resmon has one). */
  | { answer: "health"; version: string; identity: boolean }
  /** Any other answer; `reason` is the guard reason a 401 named, if it named one. */
  | { answer: "other"; status: number; reason?: string }
  | { answer: "unreachable"; error: ApiError };

/**
 * A bearer token of resmon's shape that no resmon ever minted: 43 URL-safe base64 characters from
 * 32 random bytes, made afresh for each probe (it carries nothing secret).
 */
function randomWrongToken(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * One GET /api/health carrying no Authorization header, or (`wrongToken`) a random token that is
 * not this resmon's. Nothing secret is sent either way. A guarded resmon refuses the first with 401
 * token_missing and the second with 401 token_invalid (its constant-time compare); resmon's public
 * 1.6/1.7 build has no guard and answers both with its health report. `refused` is the answer the
 * guard gives to what was sent, named by resmon's reason.
 */
async function askHealth(port: number, timeoutMs: number, wrongToken: boolean): Promise<ProbeAnswer> {
  const transport = new Transport({
    baseUrl: loopbackUrl(port),
    timeoutMs,
    connectTimeoutMs: timeoutMs,
    maxBodyBytes: UNGUARDED_PROBE_MAX_BYTES,
    maxJsonValues: DEFAULT_MAX_JSON_VALUES,
  });
  try {
    const headers: Record<string, string> = { Accept: "application/json" };
    if (wrongToken) headers.Authorization = `Bearer ${randomWrongToken()}`;
    const request = buildRequest(loopbackUrl(port), headers, "GET", "/api/health");
    const exchange = await transport.exchange(request, timeoutMs);
    if (!exchange.ok) return { answer: "unreachable", error: exchange.error };
    if (exchange.reply.status === 401) {
      const reason = httpErrorFrom(exchange.reply).reason;
      const expected = wrongToken ? "token_invalid" : "token_missing";
      if (reason === expected) return { answer: "refused" };
      return reason === undefined
        ? { answer: "other", status: 401 }
        : { answer: "other", status: 401, reason };
    }
    if (exchange.reply.status !== 200) return { answer: "other", status: exchange.reply.status };
    const body = parseSuccessBody(exchange.reply);
    if (!body.ok || !looksLikeResmonHealth(body.data)) return { answer: "other", status: 200 };
    const health = body.data as Record<string, unknown>;
    const version = typeof health.version === "string" ? health.version : "";
    return { answer: "health", version, identity: health.identity !== undefined && health.identity !== null };
  } finally {
    await transport.close();
  }
}

/**
 * With no token file for a port that accepts connections: the token-less health. Returns the
 * version an unguarded resmon reported ("" when it said none), or null.
 */
async function unguardedResmonVersion(port: number, timeoutMs: number): Promise<string | null> {
  const asked = await askHealth(port, timeoutMs, false);
  return asked.answer === "health" ? asked.version : null;
}

/**
 * Ports seen refusing a wrong token, by port and token (each start of resmon mints a new token),
 * with the runtime id the token then reached: asked again only for a new token or when that token
 * reaches another runtime id. One map per process, on globalThis: a program bundled in two halves
 * (the MCP server's start-up probe and its tool calls) asks once, not once per copy.
 */
const GUARD_SEEN = Symbol.for("@resmon/api-client/guard-seen");
const processWide = globalThis as { [GUARD_SEEN]?: Map<string, string | null> };
if (!processWide[GUARD_SEEN]) processWide[GUARD_SEEN] = new Map();
const guardSeen: Map<string, string | null> = processWide[GUARD_SEEN];

/**
 * Before a token is trusted to a port: that port must prove it checks the token, as every resmon
 * with the guard does, by refusing a random wrong one with resmon's 401 token_invalid. A crash
 * leaves api-token-<port> behind; another process that later takes the port would otherwise be
 * attached to with the stale token and its answers served as the user's, whether it answers
 * everything or refuses only a request with no token at all (401 token_missing) and takes any
 * bearer. Null when the port refused as resmon does, else the refusal.
 */
async function refusalUnlessGuarded(
  located: Omit<DiscoveryRefusal, "kind" | "message"> & { port: number; tokenFile: string },
  namedBy: string,
  timeoutMs: number,
): Promise<Discovery | null> {
  const asked = await askHealth(located.port, timeoutMs, true);
  if (asked.answer === "refused") return null;
  const url = loopbackUrl(located.port);
  if (asked.answer === "unreachable") {
    return {
      ok: false,
      refusal: { ...located, ...probeFailure(asked.error, url, namedBy, located.tokenFile) },
    };
  }
  if (asked.answer === "health" && !asked.identity) {
    return unguardedRefusal(located, namedBy, asked.version, "taken");
  }
  const answered =
    asked.answer === "health"
      ? "a health report"
      : `HTTP ${asked.status}${asked.reason ? ` (${asked.reason})` : ""}`;
  const message =
    `Something answered GET /api/health at ${url}, named by ${namedBy}, with ${answered} when asked with a ` +
    "random wrong token, where resmon refuses with 401 token_invalid: it does not check resmon's token, so it " +
    `is not the resmon that wrote ${located.tokenFile}. That file is likely left by a resmon that stopped, and ` +
    "another process holds the port now. The token was not sent and nothing it answered is used. Restart " +
    "resmon so it writes its current port and token. No other port was tried.";
  return { ok: false, refusal: { ...located, kind: "not_resmon", message } };
}

/**
 * The refusal for an unguarded resmon: no state directory would help; only a newer resmon does.
 * `tokenFile` was absent, or there but "taken" by that resmon as it takes any token (not its own).
 */
function unguardedRefusal(
  located: Omit<DiscoveryRefusal, "kind" | "message"> & { port: number; tokenFile: string },
  namedBy: string,
  version: string,
  file: "absent" | "taken",
): Discovery {
  const { tokenFile } = located;
  const url = loopbackUrl(located.port);
  const which = version && version.length <= 32 ? `resmon ${version}` : "a resmon";
  const published =
    file === "absent"
      ? `publishes no token file (none at ${tokenFile})`
      : `publishes no token file: the one at ${tokenFile} is not its own, and it answers with or without one`;
  const message =
    `${which} answers at ${url}, named by ${namedBy}, without asking for a token: this resmon has no local ` +
    `API guard and ${published}. This server attaches only to a resmon ` +
    "that publishes a token, so no setting here reaches this one (RESMON_STATE_DIR would not help): update " +
    "the resmon app to a release with the local API token, then try again. No other port was tried.";
  return { ok: false, refusal: { ...located, kind: "unguarded_resmon", message } };
}

export async function discover(opts: DiscoverOptions = {}): Promise<Discovery> {
  const env: Env = opts.env ?? process.env;
  const platform = opts.platform ?? process.platform;
  const homedir = opts.homedir ?? currentHomedir();
  const stateDir = resolveStateDir(platform, env, homedir);
  const portFile = resolvePortFile(platform, env, homedir);
  const base = { portFile: portFile.path, stateDir };

  const named = await namePort(env, portFile);
  if (!named.ok) {
    const { kind, message, fileProblem } = named;
    return {
      ok: false,
      refusal: { ...base, kind, message, tried: [], ...(fileProblem ? { fileProblem } : {}) },
    };
  }

  const { port, namedBy } = named;
  const url = loopbackUrl(port);
  const tokenFile = tokenFileFor(platform, stateDir, port);
  const located = { ...base, port, tokenFile, tried: [url] };

  const probeTimeoutMs = opts.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
  const token = await readToken(tokenFile);
  if (!token.ok) {
    if ((await acceptsConnections(port, probeTimeoutMs)) === "refused") {
      return {
        ok: false,
        refusal: {
          ...located,
          kind: "not_answering",
          message: `${NOT_RUNNING_MESSAGE} Nothing accepted a connection at ${url}, named by ${namedBy} (and ${token.why} for it at ${tokenFile}). No other port was tried.`,
          ...(token.fileProblem ? { fileProblem: token.fileProblem } : {}),
        },
      };
    }
    const unusable = token.fileProblem !== undefined;
    const unguarded = token.missing ? await unguardedResmonVersion(port, probeTimeoutMs) : null;
    if (unguarded !== null) return unguardedRefusal(located, namedBy, unguarded, "absent");
    return {
      ok: false,
      refusal: {
        ...located,
        // With no token file, one token-less GET /api/health went out (to tell an unguarded resmon
        // apart); with an unusable one nothing did. The port and token path name the instance.
        tried: token.missing ? [url] : [],
        kind: unusable ? "unusable_token_file" : "no_token_file",
        ...(token.fileProblem ? { fileProblem: token.fileProblem } : {}),
        message: `resmon's port ${port} was named by ${namedBy}, but ${token.why} for it at ${tokenFile}. ${tokenFileAdvice(token.fileProblem)} No other port was tried.`,
      },
    };
  }

  opts.onToken?.(token.token);
  const seenKey = `${port} ${token.token}`;
  if (!guardSeen.has(seenKey)) {
    const refused = await refusalUnlessGuarded(located, namedBy, probeTimeoutMs);
    if (refused) return refused;
  }
  const maxBodyBytes = opts.maxBodyBytes !== undefined ? { maxBodyBytes: opts.maxBodyBytes } : {};
  const probe = createResmonClient({
    port,
    token: token.token,
    timeoutMs: probeTimeoutMs,
    connectTimeoutMs: probeTimeoutMs,
    ...maxBodyBytes,
  });
  const answer = await probe.GET("/api/health").finally(() => probe.close());
  if (!answer.ok) {
    return { ok: false, refusal: { ...located, ...probeFailure(answer.error, url, namedBy, tokenFile) } };
  }
  if (!looksLikeResmonHealth(answer.data)) {
    return {
      ok: false,
      refusal: {
        ...located,
        kind: "not_resmon",
        message: `Something answered at ${url}, named by ${namedBy}, but its answer to GET /api/health is not resmon's health report. No other port was tried.`,
      },
    };
  }

  const identity = parseIdentity(answer.data);
  const runtimeId = identity.ok ? identity.identity.runtime_id : null;
  // The same token reaching another runtime id is not how resmon works (every start mints a token): ask again.
  if (guardSeen.has(seenKey) && guardSeen.get(seenKey) !== runtimeId) {
    const refused = await refusalUnlessGuarded(located, namedBy, probeTimeoutMs);
    if (refused) {
      guardSeen.delete(seenKey);
      return refused;
    }
  }
  guardSeen.set(seenKey, runtimeId);
  const client = createResmonClient({
    port,
    token: token.token,
    timeoutMs: opts.timeoutMs ?? 30_000,
    connectTimeoutMs: Math.min(3_000, opts.timeoutMs ?? 3_000),
    ...maxBodyBytes,
  });
  const result: Discovery = {
    ok: true,
    client,
    baseUrl: url,
    port,
    stateDir,
    portSource: named.source,
    health: answer.data,
    identity,
  };
  if (named.source === "port_file") result.portFile = portFile.path;
  if (opts.expectedRuntimeId !== undefined) {
    result.identityMatchesExpected = identity.ok && identity.identity.runtime_id === opts.expectedRuntimeId;
  }
  return result;
}
