/**
 * Everything the bin loads after its start-up front (cli.ts): the server's session behind the SDK,
 * and the doctor. An ES module of its own in the published package (dist/sdk-side.js, with
 * dist/chunks/), loaded by import() from the CommonJS bin, so start-up never pays for it.
 */
import { reclaimAfterLargeAnswers } from "../backend/large-answers.js";
import { isPlain, type Json } from "../json.js";
import type { OpenSession } from "../protocol/stdio.js";
import { fullGc } from "./full-gc.js";
import { applyV8Settings } from "./v8-settings.js";

export async function loadServer(): Promise<OpenSession> {
  // Before the SDK, zod and the contract allocate: the first time the server's heap grows.
  applyV8Settings();
  const { createServer } = await import("../server.js");
  // Once a large answer's frame has left, its copies are collected before the next is read (full-gc.ts).
  reclaimAfterLargeAnswers(fullGc);
  const { server } = createServer();
  // Once the warm-up is answered, the start-up probe says on stderr whether resmon answers
  // (start-probe.ts), so once its line is out the server makes no request of its own. Nothing waits on it.
  const probe = () =>
    void import("./start-probe.js").then(
      (p) => p.probeAtStart(),
      () => undefined,
    );
  return withWarmUp(server.open, probe);
}

/**
 * After an opening that reached tools/list, one health call replayed through the session with the
 * opening, its answer dropped, so the harness's first real call finds the whole path warm: resmon
 * found, its route list read, the SDK's request and result schemas compiled, the call path run once
 * (issue 31: a call a second after the opening took 10× a steady one when only the tool was warmed).
 * Its envelope is the opening's own (2026-07-28). A failure is the next call's to report.
 */
export function withWarmUp(open: OpenSession, warmed: () => void): OpenSession {
  return (io, opening) => {
    const last = opening.at(-1);
    if (last?.method !== "tools/list") {
      warmed();
      return open(io, opening);
    }
    const meta = isPlain(last.params) ? last.params._meta : undefined;
    const params: Json = { name: "health", arguments: {}, ...(meta === undefined ? {} : { _meta: meta }) };
    return open(io, [...opening, { jsonrpc: "2.0", id: "warm-up", method: "tools/call", params }], warmed);
  };
}

export async function runDoctor(options: { tools: boolean; writes: boolean }): Promise<number> {
  // Dynamic, like the server: nothing the front imports reaches zod, so the bundler's lazy
  // initialisers hold whole dependency trees and keep their order (tested through the bundled bin).
  const doctor = await import("./doctor.js");
  return doctor.runDoctor(options);
}
