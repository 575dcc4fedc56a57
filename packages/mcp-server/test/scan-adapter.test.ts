/**
 * The scan through the server's own adapter (createResmonTools: handlers, runScan, CallBackend):
 * its requests share the tool call's deadline and the scan's wait budget, its failures are the one
 * mapping's (backend_unavailable with `tried`, as every tool's), and scan_result, which asks resmon
 * nothing, still knows the token to scrub.
 */
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { discover } from "@resmon/api-client";
import { scanStartArgs, startTestkit, type Testkit } from "@resmon/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scrub } from "../src/scrub.js";
import { createResmonTools } from "../src/server.js";

let base: string;
let kit: Testkit;
let env: Record<string, string>;
beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), "scan-adapter-"));
  kit = await startTestkit({ stateDir: join(base, "state"), seed: "demo" });
  kit.setAdmission({ runDurationMs: 60 });
  env = {
    RESMON_PORT: String(kit.port),
    RESMON_STATE_DIR: join(base, "state"),
    RESMON_MCP_SCAN_DATA: join(base, "scans"),
    RESMON_MCP_SCAN_WAIT_MS: "3000",
  };
});
afterAll(async () => {
  await kit.stop().catch(() => undefined);
  rmSync(base, { recursive: true, force: true });
});

describe("the scan through the server's adapter", () => {
  // First in the file: nothing in this process has discovered resmon yet.
  it("scan_result, which runs no discovery, still teaches the scrubber the token", async () => {
    expect(scrub(kit.token)).toBe(kit.token);
    const tools = createResmonTools({ env });
    const got = await tools.call("scan_result", { scan_id: crypto.randomUUID() });
    expect(got.ok).toBe(false);
    expect(scrub(kit.token)).toBe("<redacted>");
    await tools.close?.();
  });

  it("at 2.5 s per request, scan_start answers within its 3 s wait budget (a full pass takes 17.5 s; the health probe's 3 s still fits)", async () => {
    kit.setFault("*", { kind: "delay", ms: 2_500 });
    const tools = createResmonTools({ env });
    try {
      const t0 = Date.now();
      const got = await tools.call(
        "scan_start",
        scanStartArgs({ scanId: crypto.randomUUID(), profile: "quick" }),
      );
      const took = Date.now() - t0;
      expect(got.ok, JSON.stringify(got).slice(0, 300)).toBe(true);
      // Near the budget, far under a full pass, with a wide margin for a loaded machine.
      expect(took).toBeLessThan(14_000);
    } finally {
      kit.setFault("*", null);
      await tools.close?.();
    }
  }, 20_000);

  // Issue 34: a sweep the scan's wait budget stopped waiting for said nothing against resmon or
  // the connection, yet the connection was dropped and the next call found resmon afresh (with a
  // busy resmon, its health probe is what then failed).
  it("a request cut by the scan's wait budget keeps the connection: the next call finds no resmon afresh", async () => {
    let discoveries = 0;
    const tools = createResmonTools({
      env: { ...env, RESMON_MCP_SCAN_WAIT_MS: "2000" },
      discoverFn: (options) => {
        discoveries += 1;
        return discover(options);
      },
    });
    kit.setFault("/api/search/sweep", { kind: "delay", ms: 8_000 }, { method: "POST" });
    try {
      const args = scanStartArgs({ scanId: crypto.randomUUID(), profile: "quick" });
      const first = await tools.call("scan_start", args);
      expect(first.ok, JSON.stringify(first).slice(0, 300)).toBe(true);
      if (!first.ok) return;
      // The sweep was cut by the budget, not answered: the scan waits for it.
      expect(first.answer).toMatchObject({ next_action: "await_retrieval" });
      expect(discoveries).toBe(1);
      const next = await tools.call("scan_continue", { scan_id: args.scan_id });
      expect(next.ok, JSON.stringify(next).slice(0, 300)).toBe(true);
      expect(discoveries).toBe(1);
    } finally {
      kit.setFault("/api/search/sweep", null, { method: "POST" });
      await tools.close?.();
    }
  }, 40_000);

  it("a backend that went away is backend_unavailable as every tool says it, with tried", async () => {
    const tools = createResmonTools({ env: { ...env, RESMON_MCP_SCAN_WAIT_MS: "0" } });
    const args = scanStartArgs({ scanId: crypto.randomUUID(), profile: "quick" });
    const first = await tools.call("scan_start", args);
    expect(first.ok).toBe(true);
    await kit.stop();
    const got = await tools.call("scan_continue", { scan_id: args.scan_id });
    expect(got.ok).toBe(false);
    if (got.ok) return;
    expect(got.error.error).toBe("backend_unavailable");
    expect(got.error.tried).toEqual([`http://127.0.0.1:${kit.port}`]);
    expect(got.error.detail).toMatchObject({ stage: "retrieve" });
    await tools.close?.();
  }, 20_000);
});

describe("a symlinked RESMON_MCP_SCAN_DATA (issue 34: dotfile set-ups, macOS /tmp)", () => {
  it("is where the user put it: a scan starts under the link's target; a link inside it is still refused", async () => {
    const target = join(base, "real-scans");
    mkdirSync(target);
    const link = join(base, "linked-scans");
    symlinkSync(target, link);
    // A stand-in of its own: an earlier case stops the file's one.
    const own = await startTestkit({ stateDir: join(base, "own-state"), seed: "demo" });
    const tools = createResmonTools({
      env: {
        ...env,
        RESMON_PORT: String(own.port),
        RESMON_STATE_DIR: join(base, "own-state"),
        RESMON_MCP_SCAN_DATA: link,
      },
    });
    try {
      const args = scanStartArgs({ scanId: crypto.randomUUID(), retrieval: "corpus", profile: "quick" });
      const got = await tools.call("scan_start", args);
      expect(got.ok, JSON.stringify(got).slice(0, 300)).toBe(true);
      expect(readdirSync(target)).toContain(String(args.scan_id));
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      // A scan's own directory that is a link is refused as before.
      const other = join(base, "elsewhere");
      mkdirSync(other);
      const linkedId = crypto.randomUUID();
      symlinkSync(other, join(target, linkedId));
      const refused = await tools.call("scan_result", { scan_id: linkedId });
      expect(refused.ok).toBe(false);
      expect(JSON.stringify(refused)).toContain("symbolic link");
      expect(existsSync(join(other, "scan.json"))).toBe(false);
    } finally {
      await tools.close?.();
      await own.stop();
    }
  });
});
