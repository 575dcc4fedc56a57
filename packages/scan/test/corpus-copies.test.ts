import { Corpus, type CorpusRecord } from "@resmon/testkit";
import { describe, expect, it } from "vitest";
import { groupSamePapers } from "../src/pool.js";
import { recordFrom } from "../src/records.js";
import type { RecordBook } from "../src/state.js";

const work = (n: number, over: Partial<CorpusRecord>): CorpusRecord => ({
  id: `https://openalex.org/W${n}`,
  doi: null,
  pmid: null,
  title: `${["Hair cortisol", "Hair cortisone", "Scalp glucocorticoids", "Stress hormones"][n - 1]} and ${["body mass index", "waist circumference", "adiposity", "obesity"][n - 1]}: study ${n}`,
  abstract: "Hair cortisol was measured.",
  year: 2015 + n,
  authors: [`Author Number${n}`, "Eline van der Valk"],
  venue: null,
  ...over,
});

// The stand-in's three sources' copies of one work (DOI case and prefix, title punctuation, author
// form) are one candidate for the scan; different works stay apart.
describe("the scan merges the stand-in's copies of one work", () => {
  const corpus = new Corpus([
    work(1, { doi: "https://doi.org/10.1111/OBR.1", pmid: "https://pubmed.ncbi.nlm.nih.gov/11" }),
    work(2, { doi: "https://doi.org/10.1111/obr.2" }),
    // No DOI: its openalex and pubmed copies meet on a close title and the year.
    work(3, { pmid: "https://pubmed.ncbi.nlm.nih.gov/33" }),
    work(4, { doi: "https://doi.org/10.1111/obr.4", pmid: "https://pubmed.ncbi.nlm.nih.gov/44" }),
  ]);
  const records: RecordBook = {};
  for (const p of corpus.papers) {
    const r = recordFrom({ ...p });
    if (r) records[r.id] = r;
  }

  it("groups every copy by its work, and only by it", () => {
    const groups = groupSamePapers(
      corpus.papers.map((p) => p.id),
      records,
    );
    const byWork = new Map<string, Set<number>>();
    for (const p of corpus.papers) {
      const key = corpus.workKey(p.id) ?? "";
      byWork.set(key, (byWork.get(key) ?? new Set()).add(groups.get(p.id) ?? -1));
    }
    expect(corpus.papers).toHaveLength(10);
    expect([...byWork.values()].map((g) => g.size)).toEqual([1, 1, 1, 1]);
    expect(new Set(groups.values()).size).toBe(4);
  });
});
