/**
 * The scan toolset through the server against the stand-in as resmon 1.6 and 1.7 (issue 21, point 7):
 * a scan that sweeps is refused as the version gap before anything is written; a corpus scan runs
 * from scan_start to scan_result with no request to a route that release lacks, nothing it does not
 * declare (no `sort`), verification from the CSV export, and no upstream_error.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compareVersions, NOT_IN_THIS_RESMON, routeSince, TOOL_BY_NAME } from "@resmon/mcp-contract";
import { followScan, scanStartArgs, type Testkit } from "@resmon/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ResmonTools } from "../src/server.js";
import { closeOlder, openOlder } from "./helpers/older-kit.js";
import { filesUnder, randomScanId } from "./helpers/scan-session.js";

describe.each(["1.6", "1.7"] as const)("the scan tools on resmon %s", (line) => {
  let kit: Testkit;
  let dir: string;
  let tools: ResmonTools;
  const scans = () => join(dir, "scans");
  const call = async (name: string, args: Record<string, unknown>) => {
    const outcome = await tools.call(name, args);
    return { ok: outcome.ok, body: (outcome.ok ? outcome.answer : outcome.error) as Record<string, unknown> };
  };

  beforeAll(async () => {
    ({ kit, dir, tools } = await openOlder(line, "scan", { RESMON_MCP_SCAN_WAIT_MS: "3000" }));
  });
  afterAll(async () => closeOlder({ kit, dir, tools }));

  it.each(["sweep", "both", undefined] as const)(
    "scan_start with retrieval %s is the version gap, before anything is written or sent",
    async (retrieval) => {
      const before = kit.requests.length;
      const answer = await call("scan_start", scanStartArgs({ scanId: randomScanId(), retrieval }));
      expect(answer.ok).toBe(false);
      expect(answer.body).toMatchObject({
        error: "conflict",
        detail: {
          reason: NOT_IN_THIS_RESMON,
          feature: "json_export",
          needs: "2.3",
          resmon_version: kit.release.version,
        },
      });
      expect(String(answer.body.message)).toMatch(/retrieval "corpus" works/);
      expect(filesUnder(scans())).toEqual([]);
      const sent = kit.requests.slice(before).filter((r) => r.method !== "GET");
      expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual([]);
    },
  );

  it("a corpus scan runs from scan_start to scan_result, asking only what this resmon serves", async () => {
    const before = kit.requests.length;
    const scanId = randomScanId();
    // With a gap round, whose query searches the corpus too.
    const args = scanStartArgs({ scanId, retrieval: "corpus", forceGapRound: true });
    const { calls, final } = await followScan(call, args, {
      gapQueries: [{ text: "folding kinetics", criterion: "C1" }],
    });
    expect(calls.map((c) => c.body.next_action)).toContain("write_gap_queries");
    expect(final).toMatchObject({ scan_id: scanId, phase: "complete", next_action: "complete" });
    expect(calls.map((c) => c.name)).toEqual(expect.arrayContaining(["scan_continue", "scan_verify"]));
    for (const c of calls) {
      expect(c.ok, `${c.name}: ${JSON.stringify(c.body).slice(0, 300)}`).toBe(true);
      expect(TOOL_BY_NAME[c.name as "scan_start"].output.safeParse(c.body).success).toBe(true);
    }

    const sent = kit.requests.slice(before);
    const lacking = sent.filter(
      (r) =>
        r.route !== null &&
        compareVersions(routeSince({ method: r.method as "GET", path: r.route }), line) > 0,
    );
    expect(lacking.map((r) => `${r.method} ${r.path}`)).toEqual([]);
    // The stand-in answers a route its release lacks 404 without matching it: none of those either.
    expect(sent.filter((r) => r.route === null && r.path !== "/openapi.json")).toEqual([]);
    expect(kit.strictnessRefusals()).toBe(0);
    const searches = sent.filter((r) => r.route === "/api/explorer/search");
    expect(searches.map((r) => (r.body as { query?: unknown }).query)).toContain("folding kinetics");
    for (const r of searches) expect(Object.hasOwn(r.body as object, "sort")).toBe(false);
    const formats = sent
      .filter((r) => r.route === "/api/export/references")
      .map((r) => (r.body as { format?: unknown }).format);
    expect(formats).toEqual(["csv", "bibtex"]);
    const lifecycle = sent.filter((r) => r.route === "/api/documents/{doc_id}/lifecycle");
    expect(lifecycle.length > 0).toBe(line === "1.7");

    const summary = (final.payload as { summary?: Record<string, unknown> }).summary ?? final.payload;
    const notServed = (summary as { not_served?: string[] }).not_served ?? [];
    expect(notServed.join("\n")).toMatch(/not ranked by similarity.*2\.3/);
    expect(notServed.join("\n")).toMatch(/No expansion.*\/similar.*2\.3/);
    expect(notServed.join("\n")).toMatch(/CSV reference export/);
    expect(notServed.some((n) => /lifecycle/.test(n))).toBe(line === "1.6");

    const evidence = JSON.parse(readFileSync(join(scans(), scanId, "evidence.json"), "utf8"));
    expect(evidence.packets.length).toBeGreaterThan(0);
    for (const p of [...evidence.packets, ...evidence.alternates]) {
      // The CSV export's rendering is the comparison's: no paper reads as changed since retrieval.
      expect(p.verification).toMatchObject({
        record_from: "csv_export",
        record_changed: [],
        no_record: false,
      });
      if (line === "1.6") expect(p.verification.lifecycle_check_status).toMatch(/^not asked: resmon 1\.6\.1/);
      else expect(String(p.verification.lifecycle_check_status)).not.toMatch(/^not (asked|finished)/);
    }
  }, 120_000);
});
