import { readFileSync } from "node:fs";
import type { RankedEntry, ScanEnvelope } from "@resmon/mcp-contract";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { noRetractionWords } from "../src/evidence-markdown.js";
import { type Rig, rig } from "./helpers/backend.js";
import { startArgs } from "./helpers/plan.js";

let r: Rig;
beforeEach(async () => {
  r = await rig("small");
});
afterEach(async () => {
  await r.close();
});

type Item = { doc_id: number; doi: string | null; title: string | null };

const RETRACTION_PLAN = {
  criteria: [
    { id: "C1", text: "About retractions" },
    { id: "C2", text: "About research integrity" },
    { id: "C3", text: "About publishing practice" },
  ],
  queries: [
    { id: "Q1", kind: "direct" as const, text: "retraction" },
    { id: "Q2", kind: "terminology" as const, text: "integrity" },
    { id: "Q3", kind: "contradictory" as const, text: "misconduct" },
    { id: "Q4", kind: "review" as const, text: "research" },
    { id: "Q5", kind: "mechanism" as const, text: "notice" },
    { id: "Q6", kind: "adjacent" as const, text: "publishing" },
  ],
};

const SOURCES = [
  "arxiv",
  "openalex",
  "crossref",
  "pubmed",
  "europepmc",
  "semantic_scholar",
  "biorxiv",
  "medrxiv",
  "doaj",
  "plos",
];

/** Score everything 3, rank in order, cite resmon's own values except a wrong DOI on one paper of the first page. */
async function runScan(): Promise<{ done: ScanEnvelope; wrongDoiId: number; realDoi: string | null }> {
  const engine = r.engine();
  const args = startArgs({ queries: RETRACTION_PLAN, sources: SOURCES, per_query: 20 });
  let env = await engine.start(args);
  let rank = 1;
  let wrongDoiId = -1;
  let realDoi: string | null = null;
  for (let i = 0; i < 100 && env.next_action !== "complete"; i++) {
    const scan_id = args.scan_id;
    if (env.next_action === "await_retrieval") env = await engine.continue({ scan_id });
    else if (env.next_action === "screen_candidates") {
      const items = (env.payload.batch as { items: Item[] }).items;
      env = await engine.continue({
        scan_id,
        screen_scores: items.map((it) => ({ doc_id: it.doc_id, score: 3, criteria_hit: ["C1"] })),
      });
    } else if (env.next_action === "write_gap_queries")
      env = await engine.continue({ scan_id, gap_queries: [] });
    else if (env.next_action === "rank_shortlist") {
      const items = (env.payload.page as { items: Item[] }).items;
      const entries: RankedEntry[] = items.map((it) => ({
        doc_id: it.doc_id,
        rank: rank++,
        cite: { ...(it.doi ? { doi: it.doi.toUpperCase() } : {}), ...(it.title ? { title: it.title } : {}) },
      }));
      // Not the first ranked paper: that one is made no_record below.
      const first = entries.filter((e) => e.doc_id !== 7)[1];
      if (wrongDoiId < 0 && first) {
        wrongDoiId = first.doc_id;
        realDoi = items.find((it) => it.doc_id === first.doc_id)?.doi ?? null;
        first.cite = { ...first.cite, doi: "https://doi.org/10.9999/not-this-one" };
      }
      env = await engine.continue({ scan_id, ranked_entries: entries });
    } else if (env.next_action === "verify_ranked") {
      // The first lifecycle check fails: that paper is lifecycle_unchecked, never "not retracted".
      r.kit.setFault("/api/documents/{doc_id}/lifecycle", { kind: "status", status: 503 }, { times: 1 });
      // The batch export and the first one-by-one export answer no rows: that paper is no_record.
      r.kit.setFault("/api/export/references", { kind: "status", status: 200, body: [] }, { times: 2 });
      env = await engine.verify({ scan_id });
    } else throw new Error(String(env.next_action));
  }
  return { done: env, wrongDoiId, realDoi };
}

describe("verification against resmon's record", () => {
  it("checks, never repairs: a DOI mismatch shows both values, a retraction leaves the packets, an unfinished lifecycle check is flagged", async () => {
    const { done, wrongDoiId, realDoi } = await runScan();
    expect(done.next_action).toBe("complete");
    const files = done.payload.files as { json: string; md: string; bib: string };
    const evidence = JSON.parse(readFileSync(files.json, "utf8"));
    expect(evidence.basis).toBe("resmon_record");

    // doc 7 is retracted in the stand-in's seed.
    expect(evidence.retracted).toEqual([
      expect.objectContaining({ doc_id: 7, notice_url: "https://example.org/notice/retraction-1" }),
    ]);
    const packetIds = evidence.packets.map((p: { doc_id: number }) => p.doc_id);
    expect(packetIds).not.toContain(7);

    const unverified = evidence.unverified.find((u: { doc_id: number }) => u.doc_id === wrongDoiId);
    expect(unverified?.mismatches).toEqual([
      { field: "doi", cited: "https://doi.org/10.9999/not-this-one", resmon: realDoi },
    ]);
    // Upper-cased DOIs of the others are the same DOI once normalised: verified.
    const others = evidence.packets.filter((p: { doc_id: number }) => p.doc_id !== wrongDoiId);
    expect(
      others.every(
        (p: { verification: { mismatches: unknown[] } }) => p.verification.mismatches.length === 0,
      ),
    ).toBe(true);

    const state = JSON.parse(readFileSync(files.json.replace("evidence.json", "scan.json"), "utf8"));
    const unchecked = state.verdicts.filter((v: { lifecycle_check_status: string | null }) =>
      (v.lifecycle_check_status ?? "").startsWith("not finished"),
    );
    expect(unchecked.length).toBe(1);
    expect(unchecked[0].lifecycle_unchecked).toBe(true);
    expect(unchecked[0].retraction).toBeNull();
    expect(evidence.lifecycle_unchecked).toContain(unchecked[0].doc_id);

    const noRecord = state.verdicts.filter((v: { no_record: boolean }) => v.no_record);
    expect(noRecord.length).toBe(1);
    expect(noRecord[0]).toMatchObject({ verified: false, record: null, mismatches: [] });
    expect(evidence.unverified).toEqual(
      expect.arrayContaining([expect.objectContaining({ doc_id: noRecord[0].doc_id, no_record: true })]),
    );

    const md = readFileSync(files.md, "utf8");
    expect(md).toContain("[UNVERIFIED — check manually]");
    expect(md).toContain("Mismatch doi: cited https://doi.org/10.9999/not-this-one; resmon has");
    expect(md).toContain("## Removed retractions");
    expect(noRetractionWords(40, 1)).toBe(
      "None among the 39 ranked papers whose lifecycle resmon checked; the other 1 were not checked, so a retraction among them would not be seen.",
    );
    expect(noRetractionWords(40, 0)).toBe("None among the 40 ranked papers, by resmon's lifecycle check.");
    // Papers resmon never checked for notices say so; none is presented as "not retracted".
    // Said once for all of them, not repeated per paper.
    expect(md.match(/resmon has not checked these papers for notices/g)).toHaveLength(1);
    expect(md).toMatch(
      /Lifecycle unchecked for papers \d+(, \d+)* above: resmon has not checked these papers/,
    );
    expect(md.toLowerCase()).not.toContain("not retracted");
    expect(md).toContain("https://example.org/notice/retraction-1");

    // evidence.bib is resmon's own BibTeX export of exactly the chosen papers.
    const bib = readFileSync(files.bib, "utf8");
    expect(bib.match(/^@/gm)?.length).toBe(evidence.packets.length);
    // Each entry carries the packet's warning as its note, as evidence.md marks it.
    type P = { verification: { verified: boolean; lifecycle_unchecked: boolean } };
    const packets = evidence.packets as P[];
    expect(bib.match(/UNVERIFIED against resmon's record/g)?.length ?? 0).toBe(
      packets.filter((p) => !p.verification.verified).length,
    );
    expect(bib.match(/retraction status not checked/g)?.length ?? 0).toBe(
      packets.filter((p) => p.verification.lifecycle_unchecked).length,
    );
    expect(packets.some((p) => !p.verification.verified || p.verification.lifecycle_unchecked)).toBe(true);
    // scan_result hands the same texts over the protocol, for a harness without file access.
    const read = await r
      .engine()
      .result({ scan_id: evidence.scan_id, include_bib: true, include_markdown: true });
    expect(read.payload.bib).toBe(bib);
    expect(read.payload.markdown).toBe(md);
    const exportCalls = r.kit.requests.filter((q) => q.route === "/api/export/references");
    const bibCall = exportCalls.find((q) => (q.body as { format: string }).format === "bibtex");
    expect(
      [...((bibCall?.body as { document_ids?: number[] } | undefined)?.document_ids ?? [])].sort(),
    ).toEqual([...packetIds].sort());
    expect(r.kit.strictnessRefusals()).toBe(0);
    // In rank order (resmon exports in its own order): each entry's DOI or title is the packet's at that rank.
    const entries = bib.split(/\n(?=@)/).filter((x) => x.trim().startsWith("@"));
    entries.forEach((entry, i) => {
      const p = evidence.packets[i] as { doi: string | null; title: string | null };
      const doi = /doi = \{(.*)\}/.exec(entry)?.[1] ?? null;
      if (p.doi && doi) expect(doi.toLowerCase()).toBe(p.doi.toLowerCase());
      else expect(entry).toContain(String(p.title));
    });

    // The result row says the same.
    expect(done.payload.retracted).toEqual([expect.objectContaining({ doc_id: 7 })]);
    expect(done.payload.unverified).toEqual(
      expect.arrayContaining([expect.objectContaining({ doc_id: wrongDoiId })]),
    );
  });
});
