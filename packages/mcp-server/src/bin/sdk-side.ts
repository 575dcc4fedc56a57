/**
 * Everything the bin loads after its start-up front (cli.ts): the server's session behind the SDK,
 * and the doctor. An ES module of its own in the published package (dist/sdk-side.js, with
 * dist/chunks/), loaded by import() from the CommonJS bin, so start-up never pays for it.
 */
import type { OpenSession } from "../protocol/stdio.js";

export async function loadServer(): Promise<OpenSession> {
  const { createServer } = await import("../server.js");
  const { server, tools } = createServer();
  // In the background: one health call, its answer dropped, so the harness's first real call finds
  // resmon found, its route list read and the call path compiled (issue 31: a call a second after
  // the opening took 146 ms against 1.4 ms steady); a failure is the next call's to report. Then
  // the start-up probe says on stderr whether resmon answers (start-probe.ts), so once its line is
  // out the server makes no request of its own. Nothing waits on either.
  void tools
    .call("health", {})
    .then(() => import("./start-probe.js"))
    .then(
      (probe) => probe.probeAtStart(),
      () => undefined,
    );
  return server.open;
}

export async function runDoctor(options: { tools: boolean; writes: boolean }): Promise<number> {
  // Dynamic, like the server: nothing the front imports reaches zod, so the bundler's lazy
  // initialisers hold whole dependency trees and keep their order (tested through the bundled bin).
  const doctor = await import("./doctor.js");
  return doctor.runDoctor(options);
}
