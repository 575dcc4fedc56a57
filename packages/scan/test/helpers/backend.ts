import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createResmonClient, type ResmonClient } from "@resmon/api-client";
import { parseArguments } from "@resmon/mcp-contract";
import { startTestkit, type Testkit } from "@resmon/testkit";
import {
  createScanEngine,
  type ScanBackend,
  type ScanEngine,
  type ScanEngineOptions,
} from "../../src/index.js";
import { plainBackend } from "./plain-backend.js";

export interface Rig {
  kit: Testkit;
  client: ResmonClient;
  connect: () => Promise<ResmonClient>;
  backend: ScanBackend;
  dataDir: string;
  engine: (opts?: Partial<ScanEngineOptions>) => ScanEngine;
  sweepPosts: () => number;
  close: () => Promise<void>;
}

/**
 * The engine as the server calls it: each call's arguments parsed by its tool's row first (the
 * contract's one validation), for a test that sends what only a caller could (a malformed scan_id).
 */
export function asTheServerCalls(engine: ScanEngine): ScanEngine {
  return {
    ...engine,
    start: async (args, backend) => engine.start(parseArguments("scan_start", args), backend),
    continue: async (args, backend) => engine.continue(parseArguments("scan_continue", args), backend),
    verify: async (args, backend) => engine.verify(parseArguments("scan_verify", args), backend),
    result: async (args) => engine.result(parseArguments("scan_result", args)),
  };
}

/** An in-process stand-in backend (as resmon `as`, default the current one; a records file's works with `corpus`), a client on it, and a fresh scan data dir. */
export async function rig(seed: "demo" | "small" = "demo", as?: string, corpus?: string): Promise<Rig> {
  const base = mkdtempSync(join(tmpdir(), "scan-test-"));
  const kit = await startTestkit({
    stateDir: join(base, "state"),
    seed,
    ...(as ? { as } : {}),
    ...(corpus ? { corpus } : {}),
  });
  kit.setAdmission({ runDurationMs: 60 });
  // Like the server's discovery: a restarted backend has a new token, so a new client.
  const clients = new Map<string, ResmonClient>();
  const connect = async () => {
    let c = clients.get(kit.token);
    if (!c) {
      c = createResmonClient({ port: kit.port, token: kit.token });
      clients.set(kit.token, c);
    }
    return c;
  };
  const client = await connect();
  const dataDir = join(base, "scans");
  const backend = plainBackend(connect);
  return {
    kit,
    client,
    connect,
    backend,
    dataDir,
    engine: (opts = {}) =>
      createScanEngine({ backend, dataDir, waitMs: 8000, pollMs: 20, retryWaitMs: 50, ...opts }),
    sweepPosts: () =>
      kit.requests.filter((q) => q.method === "POST" && q.route === "/api/search/sweep" && q.status === 200)
        .length,
    close: async () => {
      for (const c of clients.values()) await c.close();
      await kit.stop();
      rmSync(base, { recursive: true, force: true });
    },
  };
}

/** A rig over the "small" seed whose stand-in serves `records` (the corpus format) as its documents. */
export async function corpusRig(records: readonly object[]): Promise<Rig> {
  const dir = mkdtempSync(join(tmpdir(), "scan-corpus-"));
  const file = join(dir, "records.jsonl");
  writeFileSync(file, `${records.map((x) => JSON.stringify(x)).join("\n")}\n`);
  const r = await rig("small", undefined, file);
  return {
    ...r,
    close: async () => {
      await r.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
