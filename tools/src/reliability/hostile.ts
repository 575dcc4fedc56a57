/**
 * A hostile resmon: a loopback HTTP server with its own port file and token file that passes every
 * request through to a stand-in, except those a rule takes over — answered with an endless or a
 * huge body, dripped a byte at a time, or replaced by a malformed answer around a write. It keeps
 * every bearer token it received, so a test can check none of them comes back out of the server.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { join } from "node:path";
import type { Testkit } from "@resmon/testkit";

export type Behaviour =
  /** 200 and a JSON body that never ends, written as fast as the reader takes it. */
  | { kind: "endless"; chunkBytes: number; declareLength: boolean }
  /** 200 and a complete, valid JSON body of about `bytes`. */
  | { kind: "huge"; bytes: number; declareLength: boolean; chunkBytes: number }
  /** 200, then one byte of a JSON body every `everyMs`, never finishing. */
  | { kind: "drip"; everyMs: number }
  /** 200 with this exact body text (malformed JSON, an array, nothing at all...). */
  | { kind: "text"; body: string; contentType: string };

interface Rule {
  method: string;
  path: string;
  /** Pass this many matching requests through first (e.g. 1: the read after a write). */
  skip?: number;
  behaviour: Behaviour;
}

/** Owner-only and renamed into place, as resmon writes its files. */
export function writeAtomic(path: string, content: string): void {
  const temp = `${path}.${randomBytes(4).toString("hex")}.tmp`;
  writeFileSync(temp, content, { mode: 0o600 });
  renameSync(temp, path);
}

function bodyText(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** An object of a findings-like list, padded to about `bytes` of JSON. */
function item(bytes: number): string {
  return JSON.stringify({ id: 1, title: "x".repeat(Math.max(1, bytes - 20)) });
}

export class HostileBackend {
  readonly portFile: string;
  /** Every bearer token a request carried. */
  readonly tokensSeen = new Set<string>();
  /** Requests answered by a rule rather than passed through. */
  taken = 0;
  /** Bytes written by rules (endless/huge/drip), to show the server had them on offer. */
  bytesOffered = 0;
  /** Called on each request before it is handled (e.g. to rewrite the token file mid-discovery). */
  onRequest: ((req: IncomingMessage) => void) | null = null;
  private rules: { rule: Rule; seen: number }[] = [];
  /** Tokens this backend wrote to its token file: only these are its own (the stand-in's token is sent on). */
  private readonly issued = new Set<string>();
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
    readonly stateDir: string,
    private readonly kit: Testkit,
  ) {
    this.portFile = join(stateDir, "hostile", "resmon.port");
  }

  /** Listen on a free port; write the port file and the token file for that port (the stand-in's token). */
  static async start(kit: Testkit, stateDir: string): Promise<HostileBackend> {
    let self: HostileBackend | undefined;
    const server = createServer((req, res) => void self?.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    self = new HostileBackend(server, port, stateDir, kit);
    server.on("connection", (s: Socket) => {
      self?.sockets.add(s);
      s.on("close", () => self?.sockets.delete(s));
    });
    mkdirSync(join(stateDir, "hostile"), { recursive: true });
    writeAtomic(self.portFile, `${port}\n`);
    self.writeToken(kit.token);
    return self;
  }

  get tokenFile(): string {
    return join(this.stateDir, `api-token-${this.port}`);
  }

  writeToken(token: string): void {
    this.issued.add(token);
    writeAtomic(this.tokenFile, `${token}\n`);
  }

  set(rules: Rule[]): void {
    this.rules = rules.map((rule) => ({ rule, seen: 0 }));
    this.taken = 0;
    this.bytesOffered = 0;
  }

  /** Back to passing everything through; ends any body still being written. */
  clear(): void {
    this.rules = [];
    for (const t of this.timers) clearInterval(t);
    this.timers.clear();
    for (const s of this.sockets) s.destroy();
  }

  async stop(): Promise<void> {
    this.clear();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private match(req: IncomingMessage): Behaviour | null {
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    for (const r of this.rules) {
      if (r.rule.method !== req.method || r.rule.path !== path) continue;
      r.seen++;
      if (r.seen > (r.rule.skip ?? 0)) return r.rule.behaviour;
    }
    return null;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const auth = req.headers.authorization;
    const bearer = typeof auth === "string" && auth.startsWith("Bearer ");
    if (bearer) this.tokensSeen.add(auth.slice(7).trim());
    this.onRequest?.(req);
    const body = await bodyText(req).catch(() => Buffer.alloc(0));
    // A guarded resmon refuses a request with no token, or with a token it never issued, before any
    // route runs: the stand-in's guard answers it (401 token_missing or token_invalid, the token as
    // sent), and no rule takes it. The server's start-up probe sends a random wrong token to see it.
    if (!bearer || !this.issued.has(auth.slice(7).trim())) return this.passThrough(req, body, res, false);
    const behaviour = this.match(req);
    if (behaviour === null) return this.passThrough(req, body, res);
    this.taken++;
    res.on("error", () => undefined);
    switch (behaviour.kind) {
      case "text":
        res.writeHead(200, { "content-type": behaviour.contentType });
        res.end(behaviour.body);
        return;
      case "endless":
        return this.endless(res, behaviour);
      case "huge":
        return this.huge(res, behaviour);
      case "drip":
        return this.drip(res, behaviour.everyMs);
    }
  }

  /**
   * To the stand-in; a request that carried one of this backend's tokens carries the stand-in's
   * instead (`ownToken`); any other goes as it came, and the stand-in's guard judges it.
   */
  private passThrough(req: IncomingMessage, body: Buffer, res: ServerResponse, ownToken = true): void {
    const { authorization: sent, ...rest } = req.headers;
    const headers = {
      ...rest,
      ...(ownToken ? { authorization: `Bearer ${this.kit.token}` } : sent ? { authorization: sent } : {}),
      host: `127.0.0.1:${this.kit.port}`,
    };
    const upstream = request(
      { host: "127.0.0.1", port: this.kit.port, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    upstream.end(body);
  }

  /** Write chunks while the reader keeps up; stop when the connection goes. */
  private pump(res: ServerResponse, next: () => string | null): void {
    const write = (): void => {
      for (;;) {
        if (res.destroyed) return;
        const chunk = next();
        if (chunk === null) {
          res.end();
          return;
        }
        this.bytesOffered += chunk.length;
        if (!res.write(chunk)) {
          res.once("drain", write);
          return;
        }
      }
    };
    write();
  }

  private endless(res: ServerResponse, b: { chunkBytes: number; declareLength: boolean }): void {
    // A declared length that the body then overruns: the server may trust neither.
    res.writeHead(200, {
      "content-type": "application/json",
      ...(b.declareLength ? { "content-length": String(2 ** 31) } : {}),
    });
    const piece = `${item(b.chunkBytes)},`;
    let first = true;
    this.pump(res, () => {
      if (first) {
        first = false;
        return '{"findings":[';
      }
      return piece;
    });
  }

  private huge(res: ServerResponse, b: { bytes: number; declareLength: boolean; chunkBytes: number }): void {
    const piece = item(b.chunkBytes);
    const count = Math.max(1, Math.floor(b.bytes / (piece.length + 1)));
    const head = '{"findings":[';
    const tail = "]}";
    const total = head.length + count * piece.length + (count - 1) + tail.length;
    res.writeHead(200, {
      "content-type": "application/json",
      ...(b.declareLength ? { "content-length": String(total) } : {}),
    });
    let i = -1;
    this.pump(res, () => {
      i++;
      if (i === 0) return head;
      if (i <= count) return i < count ? `${piece},` : piece;
      if (i === count + 1) return tail;
      return null;
    });
  }

  private drip(res: ServerResponse, everyMs: number): void {
    res.writeHead(200, { "content-type": "application/json" });
    const text = `{"findings":[${item(64)}`;
    let i = 0;
    const timer = setInterval(() => {
      if (res.destroyed) {
        clearInterval(timer);
        this.timers.delete(timer);
        return;
      }
      this.bytesOffered++;
      res.write(text[i % text.length] ?? " ");
      i++;
    }, everyMs);
    this.timers.add(timer);
  }
}
