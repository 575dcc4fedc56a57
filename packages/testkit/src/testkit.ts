import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { join } from "node:path";
import { Backend, type EmbeddingState, type IdentityMode } from "./backend.js";
import { Corpus, readCorpus } from "./corpus.js";
import type { SourceMode } from "./coverage.js";
import type { DeclaredRoute } from "./declared.js";
import type { Fault } from "./faults.js";
import { FaultTable } from "./faults.js";
import { mintToken, removeQuietly, tokenFilePath, writeAtomic } from "./files.js";
import { checkGuard } from "./guard.js";
import { olderAnswer, olderRequest } from "./older.js";
import {
  CURRENT_RELEASE,
  isPublicBuild,
  openapiDocument,
  type Release,
  releaseNamed,
  serves,
} from "./releases.js";
import type { Query, Reply } from "./reply.js";
import { match } from "./router.js";
import { fillSlots, freeSlots, releaseRuns } from "./runner.js";
import { type SeedName, type SeedSummary, summarize } from "./seed/index.js";
import { bodyErrors, coerceBody, undeclared } from "./strict.js";

export interface TestkitOptions {
  stateDir: string;
  /** 0 (the default) picks any free port. */
  port?: number;
  /** Default `<stateDir>/resmon.port`; null writes none. */
  portFile?: string | null;
  seed?: SeedName;
  /**
   * A records file (JSON lines, gzip or plain; the format of the SYNERGY records) whose works become
   * the documents, each served by openalex, pubmed (with a PMID) and crossref (with a DOI): see corpus.ts.
   */
  corpus?: string;
  writeTokenFile?: boolean;
  /** Play an older resmon ("1.6", "1.6.1", "1.7", "2.3"; default the current 2.3): see releases.ts. */
  as?: string;
  /**
   * Play the public 1.6/1.7 build as it was (releases.ts, PUBLIC_BUILD): no token guard, so every
   * request is answered without a token; no token file and no port file written; health reports
   * status, pid, started_at and version only (no identity). Refused with 2.3, which always guards.
   */
  unguarded?: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  /** The matched template, e.g. "/api/routines/{routine_id}"; null when no route matched. */
  route: string | null;
  query: Record<string, string | string[]>;
  body: unknown;
  /** Lower-case names; the Authorization value is never kept. */
  headers: Record<string, string>;
  /** 0 when the connection was dropped or left hanging. */
  status: number;
  strictnessRefusal: boolean;
}

export interface Testkit {
  readonly port: number;
  readonly baseUrl: string;
  readonly stateDir: string;
  readonly portFile: string | null;
  readonly tokenFile: string;
  readonly runtimeId: string;
  /** The release played (`as`): the version its health reports. */
  readonly release: Release;
  /** Playing the public build without the token guard (TestkitOptions.unguarded). */
  readonly unguarded: boolean;
  /** For tests only: never print it. */
  readonly token: string;
  readonly seedSummary: SeedSummary;
  /** The work (the record's id) a document is a copy of, under `corpus`; null otherwise. */
  corpusWork(documentId: number): string | null;
  readonly requests: readonly RecordedRequest[];
  clearRequests(): void;
  strictnessRefusals(): number;
  setFault(route: string | "*", fault: Fault | null, opts?: { method?: string; times?: number }): void;
  clearFaults(): void;
  refuseAllTokens(on: boolean): void;
  setIdentityMode(mode: IdentityMode): void;
  setSemanticAvailable(on: boolean): void;
  setEmbeddingState(state: EmbeddingState): void;
  /** Only these papers count as embedded (null: the seeded set). */
  setEmbeddedOnly(ids: number[] | null): void;
  setAdmission(opts: { maxConcurrent?: number; queueLimit?: number; runDurationMs?: number }): void;
  /** From now on no run ends (sweeps and routine runs stay `running`) until releaseRuns(). */
  holdRuns(): void;
  /** Stop holding: runs whose duration passed while held end now, the rest when it passes. */
  releaseRuns(): void;
  /**
   * Start runs that occupy `n` admission slots (default: every free one) until freeSlots(), as
   * another client's sweeps would: a sweep is then refused 429 + Retry-After, a routine fire is
   * queued (202), and once the queue is full refused 409. Returns the runs' execution ids.
   */
  fillSlots(n?: number): number[];
  /** End the runs fillSlots started (completed); queued routine fires then start. */
  freeSlots(): void;
  /**
   * Make sweeps fail, for the next `times` sweeps (default: until switched off with null):
   * "unavailable" answers POST /api/search/sweep with 503 (nothing started); "run_failed" admits
   * the sweep and ends its run `failed`, every source recording resmon's "Upstream returned HTTP 503".
   */
  failSweeps(mode: "unavailable" | "run_failed" | null, opts?: { times?: number }): void;
  /**
   * How `source` ("*": every source) answers the next `times` runs that ask it (default: until
   * switched off with null), recorded as resmon records it: "answer" (the default: it searches the
   * seed; nothing matching is an answered zero), "empty" (answered, zero: genuine empty),
   * "no_answer" (a recorded non-answer: upstream_failure, HTTP 503), "unrecorded" (zero, reason not
   * recorded: unknown), "missing" (no outcome recorded at all: unknown). A rule for one source wins
   * over "*"; a run that sees a rule spends one of its times.
   */
  setSourceOutcome(source: string, mode: SourceMode | null, opts?: { times?: number }): void;
  /** A new runtime_id and token, on the same port; running work ends interrupted (daemon_restart). */
  restart(): Promise<void>;
  stop(): Promise<void>;
  crash(): Promise<void>;
}

const SWEEP_ROUTE = "/api/search/sweep";

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function queryOf(url: URL): Query {
  const out: Query = {};
  for (const [k, v] of url.searchParams) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

function headersOf(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    out[k] = k === "authorization" ? "<redacted>" : Array.isArray(v) ? v.join(", ") : v;
  }
  return out;
}

/** `text` in pieces of `bytes` characters, as a body written without a Content-Length. */
async function* inChunks(text: string, bytes: number): AsyncGenerator<string> {
  for (let at = 0; at < text.length; at += bytes) yield text.slice(at, at + bytes);
}

/** A streamed reply: each chunk written as it comes, until it ends or the connection goes. */
async function sendStream(res: ServerResponse, reply: Reply, stream: AsyncIterable<string>): Promise<void> {
  res.writeHead(reply.status, {
    "content-type": reply.contentType ?? "application/octet-stream",
    ...(reply.headers ?? {}),
  });
  for await (const chunk of stream) {
    if (res.destroyed) return;
    res.write(chunk);
  }
  res.end();
}

function send(res: ServerResponse, reply: Reply): void {
  if (reply.stream) {
    sendStream(res, reply, reply.stream).catch(() => res.destroy());
    return;
  }
  const text = typeof reply.body === "string" && reply.contentType ? reply.body : JSON.stringify(reply.body);
  const headers: Record<string, string> = {
    "content-type": reply.contentType ?? "application/json",
    "content-length": String(Buffer.byteLength(text)),
    ...(reply.headers ?? {}),
  };
  res.writeHead(reply.status, headers);
  res.end(text);
}

/** The request body as JSON, or its text when it is not JSON (bodyInvalid). */
function bodyOf(raw: string): { body: unknown; bodyInvalid: boolean } {
  if (raw.trim().length === 0) return { body: undefined, bodyInvalid: false };
  try {
    return { body: JSON.parse(raw), bodyInvalid: false };
  } catch {
    return { body: raw, bodyInvalid: true };
  }
}

/**
 * What resmon's OpenAPI or this release refuses before the route's handler runs, as FastAPI would
 * answer it (strictness: a field or parameter resmon would silently ignore, counted by the tests).
 */
function strictnessRefusal(
  release: Release,
  method: string,
  declared: DeclaredRoute,
  query: Query,
  body: unknown,
  bodyInvalid: boolean,
): { reply: Reply; strictness: boolean } | null {
  const extra = undeclared(declared, query, bodyInvalid ? undefined : body);
  if (extra.query.length || extra.body.length || extra.bodyNotAllowed) {
    const named = [
      ...extra.query.map((q) => `query parameter '${q}'`),
      ...extra.body.map((f) => `body field '${f}'`),
      ...(extra.bodyNotAllowed ? ["a request body"] : []),
    ];
    const reply: Reply = {
      status: 400,
      body: {
        detail: {
          reason: "testkit_undeclared",
          message: `The testkit refused ${method} ${declared.path}: resmon's OpenAPI does not declare ${named.join(", ")} for this route. The real backend would silently ignore it.`,
          undeclared_query: extra.query,
          undeclared_body: extra.body,
        },
      },
    };
    return { reply, strictness: true };
  }
  if (bodyInvalid && declared.body) {
    const reply: Reply = {
      status: 422,
      body: {
        detail: [
          {
            type: "json_invalid",
            loc: ["body", 0],
            msg: "JSON decode error",
            input: {},
            ctx: { error: "Expecting value" },
          },
        ],
      },
    };
    return { reply, strictness: false };
  }
  const older = olderRequest(release, `${method} ${declared.path}`, query, bodyInvalid ? undefined : body);
  if (older) return { reply: older.reply, strictness: older.strictness };
  const invalid = bodyErrors(declared, body);
  if (invalid.length) return { reply: { status: 422, body: { detail: invalid } }, strictness: false };
  return null;
}

class TestkitServer implements Testkit {
  port = 0;
  // A true private field behind a getter, so console.log(kit) or a serialized kit never shows the token.
  #token = mintToken();
  tokenFile = "";
  readonly portFile: string | null;
  readonly requests: RecordedRequest[] = [];
  private readonly backend: Backend;
  private readonly faults = new FaultTable();
  private refuseAll = false;
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private readonly writeToken: boolean;
  readonly release: Release;
  readonly unguarded: boolean;

  constructor(
    readonly stateDir: string,
    readonly opts: TestkitOptions,
  ) {
    const release = opts.as === undefined ? CURRENT_RELEASE : releaseNamed(opts.as);
    if (!release) throw new Error(`the testkit plays resmon 1.6, 1.7 and 2.3, not ${opts.as}`);
    this.release = release;
    this.unguarded = opts.unguarded ?? false;
    if (this.unguarded && !isPublicBuild(release)) {
      throw new Error(
        `resmon ${release.version} guards its local API: only 1.6 and 1.7 can be played unguarded`,
      );
    }
    this.backend = new Backend(
      opts.seed ?? "demo",
      opts.corpus === undefined ? null : new Corpus(readCorpus(opts.corpus)),
    );
    this.backend.version = release.version;
    this.backend.publicHealth = this.unguarded;
    // The public build writes neither file (it listens on the port it was started with, 8742 by default).
    const defaultPortFile = this.unguarded ? null : join(stateDir, "resmon.port");
    this.portFile = opts.portFile === undefined ? defaultPortFile : opts.portFile;
    this.writeToken = !this.unguarded && (opts.writeTokenFile ?? true);
  }

  get token(): string {
    return this.#token;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get runtimeId(): string {
    return this.backend.runtimeId;
  }

  corpusWork(documentId: number): string | null {
    return this.backend.corpus?.workKey(documentId) ?? null;
  }

  get seedSummary(): SeedSummary {
    return summarize(this.backend.store);
  }

  async listen(port: number): Promise<void> {
    const server = createServer((req, res) => {
      this.handle(req, res).catch(() => {
        if (!res.headersSent)
          send(res, { status: 500, body: "Internal Server Error", contentType: "text/plain; charset=utf-8" });
      });
    });
    server.keepAliveTimeout = 5000;
    server.on("connection", (s: Socket) => {
      this.sockets.add(s);
      s.on("close", () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
    const address = server.address();
    this.port = typeof address === "object" && address ? address.port : port;
    this.server = server;
    this.tokenFile = tokenFilePath(this.stateDir, this.port);
    if (this.writeToken) writeAtomic(this.tokenFile, this.token);
    if (this.portFile) writeAtomic(this.portFile, `${this.port}\n`);
  }

  private async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    this.backend.clearTimers();
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    await closed;
  }

  private record(entry: RecordedRequest): RecordedRequest {
    this.requests.push(entry);
    return entry;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const method = (req.method ?? "GET").toUpperCase();
    const { body, bodyInvalid } = bodyOf(await readBody(req));
    const query = queryOf(url);
    const entry = this.record({
      method,
      path: url.pathname,
      route: null,
      query,
      body: body ?? null,
      headers: headersOf(req),
      status: 0,
      strictnessRefusal: false,
    });
    const reply = (r: Reply): void => {
      entry.status = r.status;
      send(res, r);
    };

    const refusal = this.unguarded ? null : checkGuard(req, this.port, this.token, this.refuseAll);
    if (refusal) return reply({ status: refusal.status, body: refusal.body, headers: refusal.headers });

    // FastAPI serves its app's OpenAPI document; this one lists the tools' routes the release has.
    if (method === "GET" && url.pathname === "/openapi.json") {
      return reply({ status: 200, body: openapiDocument(this.release) });
    }
    const found = match(method, url.pathname);
    // A route the release does not have is, to FastAPI, no route at all.
    if (found.route && !serves(this.release, method, found.route.declared.path)) {
      return reply({ status: 404, body: { detail: "Not Found" } });
    }
    if (!found.route) {
      return reply(
        found.pathKnown
          ? { status: 405, body: { detail: "Method Not Allowed" } }
          : { status: 404, body: { detail: "Not Found" } },
      );
    }
    const declared = found.route.declared;
    entry.route = declared.path;

    const routeKey = `${method} ${declared.path}`;
    const refused = strictnessRefusal(this.release, method, declared, query, body, bodyInvalid);
    if (refused) {
      entry.strictnessRefusal = refused.strictness;
      return reply(refused.reply);
    }

    const fault = this.faults.take(declared.path, method);
    if (fault && (await this.answerFault(fault, { req, res, entry, body, reply }))) return;
    return reply(
      olderAnswer(
        this.release,
        routeKey,
        found.route.handler({
          backend: this.backend,
          params: found.params,
          query,
          body: coerceBody(declared, body),
        }),
      ),
    );
  }

  /** Answers a fault the test set for this route; false when the request goes on to its handler (a delay). */
  private async answerFault(
    fault: Fault,
    {
      req,
      res,
      entry,
      body,
      reply,
    }: {
      req: IncomingMessage;
      res: ServerResponse;
      entry: RecordedRequest;
      body: unknown;
      reply: (r: Reply) => void;
    },
  ): Promise<boolean> {
    switch (fault.kind) {
      case "delay":
        await new Promise((r) => setTimeout(r, fault.ms));
        // Stopped while waiting: nothing is answered.
        return !this.server;
      case "status": {
        const answer = fault.body ?? { detail: `testkit fault: HTTP ${fault.status}` };
        reply(
          fault.chunkBytes
            ? {
                status: fault.status,
                body: undefined,
                contentType: "application/json",
                stream: inChunks(JSON.stringify(answer), fault.chunkBytes),
              }
            : { status: fault.status, body: answer },
        );
        return true;
      }
      case "answer":
        reply(fault.answer(body));
        return true;
      case "malformed_json":
        entry.status = 200;
        res.writeHead(200, { "content-type": "application/json" });
        res.end('{"results": [{"id": 1, "title": "trunc');
        return true;
      case "drop_connection":
        req.socket.destroy();
        return true;
      case "hang":
        return true;
    }
  }

  clearRequests(): void {
    this.requests.length = 0;
  }

  strictnessRefusals(): number {
    return this.requests.filter((r) => r.strictnessRefusal).length;
  }

  setFault(route: string, fault: Fault | null, opts?: { method?: string; times?: number }): void {
    this.faults.set(route, fault, opts);
  }

  clearFaults(): void {
    this.faults.clear();
  }

  refuseAllTokens(on: boolean): void {
    this.refuseAll = on;
  }

  setIdentityMode(mode: IdentityMode): void {
    this.backend.identityMode = mode;
  }

  setSemanticAvailable(on: boolean): void {
    this.backend.embeddingState = on ? "ready" : "no_model";
  }

  setEmbeddingState(state: EmbeddingState): void {
    this.backend.embeddingState = state;
  }

  setEmbeddedOnly(ids: number[] | null): void {
    this.backend.embeddedOnly = ids ? new Set(ids) : null;
  }

  setAdmission(opts: { maxConcurrent?: number; queueLimit?: number; runDurationMs?: number }): void {
    Object.assign(
      this.backend.admission,
      Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined)),
    );
  }

  holdRuns(): void {
    this.backend.runControls.holding = true;
  }

  releaseRuns(): void {
    releaseRuns(this.backend);
  }

  fillSlots(n?: number): number[] {
    return fillSlots(this.backend, n);
  }

  freeSlots(): void {
    freeSlots(this.backend);
  }

  failSweeps(mode: "unavailable" | "run_failed" | null, opts: { times?: number } = {}): void {
    const times = opts.times;
    this.faults.set(
      SWEEP_ROUTE,
      mode === "unavailable" ? { kind: "status", status: 503 } : null,
      times === undefined ? { method: "POST" } : { method: "POST", times },
    );
    this.backend.runControls.failNext = mode === "run_failed" ? (times ?? Number.POSITIVE_INFINITY) : 0;
  }

  setSourceOutcome(source: string, mode: SourceMode | null, opts: { times?: number } = {}): void {
    this.backend.sourceModes.set(source, mode, opts);
  }

  async restart(): Promise<void> {
    await this.close();
    removeQuietly(this.tokenFile);
    this.backend.restart();
    this.#token = mintToken();
    await this.listen(this.port);
  }

  async stop(): Promise<void> {
    await this.close();
    removeQuietly(this.tokenFile);
    removeQuietly(this.portFile);
  }

  async crash(): Promise<void> {
    await this.close();
  }
}

export async function startTestkit(opts: TestkitOptions): Promise<Testkit> {
  const kit = new TestkitServer(opts.stateDir, opts);
  await kit.listen(opts.port ?? 0);
  return kit;
}
