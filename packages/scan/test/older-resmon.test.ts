/**
 * The scan on a resmon of the 1.6 line (the stand-in `as: "1.6"`), told what that resmon lacks as the
 * server tells it (ScanBackend.served): a corpus scan runs to complete with no request to a route it
 * lacks and nothing it does not declare (no `sort`), verification reads the CSV export, the
 * expansion and the lifecycle check are not asked and say why; a sweep is refused as the version gap.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ToolError } from "@resmon/mcp-contract";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ScanBackend, ScanServes } from "../src/index.js";
import { type Rig, rig } from "./helpers/backend.js";
import { driveToEnd } from "./helpers/model.js";
import { startArgs } from "./helpers/plan.js";
import { refused } from "./helpers/refused.js";

/** The version gap as the server's this-resmon.ts words it. */
function lack(what: string, needs: string): ToolError {
  return new ToolError("conflict", `resmon 1.6.1 has no ${what}: that needs resmon ${needs} or newer.`, {
    reason: "not_in_this_resmon",
    resmon_version: "1.6.1",
    needs,
  });
}

/** What resmon 1.6 lacks of what the scan uses (releases.ts in the testkit has the facts). */
const AT_16: ScanServes = {
  json_export: lack("JSON export", "2.3"),
  similarity_search: lack("similarity search", "2.3"),
  similar: lack("GET /api/documents/{document_id}/similar", "2.3"),
  lifecycle: lack("GET /api/documents/{doc_id}/lifecycle", "1.7"),
};

let r: Rig;
let backend: ScanBackend;
beforeEach(async () => {
  r = await rig("demo", "1.6");
  backend = { ...r.backend, served: async () => AT_16 };
});
afterEach(async () => {
  await r.close();
});

describe("on resmon 1.6", () => {
  it("a corpus scan runs to complete, asking nothing 1.6 lacks, and says what it could not do", async () => {
    const engine = r.engine({ backend });
    const args = startArgs({ retrieval: "corpus" });
    const seen = await driveToEnd(engine, await engine.start(args));
    expect(seen.at(-1)?.next_action).toBe("complete");

    const requests = r.kit.requests;
    expect(requests.filter((q) => q.route === null).map((q) => `${q.method} ${q.path}`)).toEqual([]);
    expect(requests.filter((q) => /\/similar|\/lifecycle/.test(q.path))).toEqual([]);
    expect(r.kit.strictnessRefusals()).toBe(0);
    const searches = requests.filter((q) => q.route === "/api/explorer/search");
    expect(searches.length).toBeGreaterThan(0);
    for (const q of searches) expect(Object.hasOwn(q.body as object, "sort")).toBe(false);
    const exports = requests.filter((q) => q.route === "/api/export/references");
    expect(exports.map((q) => (q.body as { format: string }).format)).toEqual(["csv", "bibtex"]);

    const state = JSON.parse(readFileSync(join(r.dataDir, args.scan_id, "scan.json"), "utf8"));
    expect(state.expansion).toMatchObject({ seeds: [], added: [], not_asked: AT_16.similar?.message });
    for (const t of state.tasks) expect(t).toMatchObject({ sort_asked: null, sort_served: null });

    const evidence = JSON.parse(readFileSync(join(r.dataDir, args.scan_id, "evidence.json"), "utf8"));
    expect(evidence.not_served).toHaveLength(4);
    expect(evidence.basis_note).toMatch(/CSV export of the same ids/);
    expect(evidence.basis_note).toMatch(/no lifecycle route/);
    expect(evidence.packets.length).toBeGreaterThan(0);
    for (const p of evidence.packets) {
      expect(p.verification).toMatchObject({
        record_from: "csv_export",
        record_changed: [],
        no_record: false,
        lifecycle_unchecked: true,
      });
      expect(p.verification.lifecycle_check_status).toBe(`not asked: ${AT_16.lifecycle?.message}`);
    }
    expect(evidence.coverage.corpus.every((c: { sort_asked: unknown }) => c.sort_asked === null)).toBe(true);
    const md = readFileSync(join(r.dataDir, args.scan_id, "evidence.md"), "utf8");
    expect(md).toContain("What this resmon could not do for the scan:");
    expect(md).toContain("no check was asked for");
    expect(md).toMatch(/Corpus searches: \d+, of which 0 ranked by similarity/);
    // No paper's lifecycle was checked: "no retraction" is not said as if it had been.
    const removed = md.slice(md.indexOf("## Removed retractions"));
    expect(removed).toContain("None can be said: no ranked paper's retraction status was checked");
    expect(removed).not.toContain("None among");
  });

  it("a record whose whitespace the CSV collapses, or whose DOI it writes as empty, is no change", async () => {
    const args = startArgs({ retrieval: "corpus" });
    const first = args.queries.queries[0];
    // The first corpus search answers resmon's own rows with their whitespace spread and their DOI "".
    const asked = await r.client.POST("/api/explorer/search", {
      body: { query: first?.text, limit: args.per_query, sources: args.sources } as never,
    });
    if (!asked.ok) throw new Error("the stand-in did not answer the search");
    const page = asked.data as { results: Record<string, unknown>[] };
    const messy: Record<string, unknown>[] = page.results.map((p) => ({
      ...p,
      title: ` ${String(p.title).replaceAll(" ", "  \n")}\t`,
      authors: String(p.authors).replaceAll(", ", ",\u00a0 "),
      doi: p.doi ?? "",
    }));
    r.kit.setFault(
      "/api/explorer/search",
      { kind: "status", status: 200, body: { ...page, results: messy } },
      { times: 1 },
    );
    const engine = r.engine({ backend });
    expect((await driveToEnd(engine, await engine.start(args))).at(-1)?.next_action).toBe("complete");
    const state = JSON.parse(readFileSync(join(r.dataDir, args.scan_id, "scan.json"), "utf8"));
    const spread = new Set(messy.map((p) => p.id));
    const checked = state.verdicts.filter((v: { doc_id: number }) => spread.has(v.doc_id));
    expect(checked.length).toBeGreaterThan(0);
    for (const v of checked) expect(v).toMatchObject({ record_changed: [], record_from: "csv_export" });
  });

  it("a sweep is the version gap, with no sweep sent", async () => {
    const engine = r.engine({ backend });
    const error = await refused(engine.start(startArgs({ retrieval: "both" })));
    expect(error).toMatchObject({
      code: "conflict",
      detail: { reason: "not_in_this_resmon", needs: "2.3", stage: "retrieve" },
    });
    expect(r.kit.requests.filter((q) => q.route === "/api/search/sweep")).toEqual([]);
  });
});
