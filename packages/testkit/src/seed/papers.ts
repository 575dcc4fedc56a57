import type { Paper } from "../model.js";
import type { Rng } from "../prng.js";
import { pad } from "./format.js";
import { FINDINGS, SUFFIXES, TOPICS, titleOf, topicAt } from "./topics.js";

const FIRST = [
  "Ada",
  "Alan",
  "Grace",
  "Katherine",
  "Rosalind",
  "Emmy",
  "Srinivasa",
  "Marie",
  "Niels",
  "Chien-Shiung",
  "Jane",
  "Tim",
  "Hedy",
  "Barbara",
  "Edsger",
];
const LAST = [
  "Lovelace",
  "Turing",
  "Hopper",
  "Johnson",
  "Franklin",
  "Noether",
  "Ramanujan",
  "Curie",
  "Bohr",
  "Wu",
  "Doe",
  "Berners-Lee",
  "Lamarr",
  "Liskov",
  "Dijkstra",
];
const CORPUS_SOURCES = [
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
] as const;

/** A date between 2019-01-01 and 2026-11-20, as resmon stores it. */
function randomDate(rng: Rng): string {
  const start = Date.UTC(2019, 0, 1);
  const end = Date.UTC(2026, 10, 20);
  const day = start + Math.floor(rng.next() * ((end - start) / 86400000)) * 86400000;
  return new Date(day).toISOString().slice(0, 10);
}

function seenAt(rng: Rng): string {
  return `2026-${pad(rng.int(1, 11))}-${pad(rng.int(1, 28))} ${pad(rng.int(0, 23))}:${pad(rng.int(0, 59))}:00`;
}

function externalId(source: string, id: number): string {
  switch (source) {
    case "arxiv":
      return `24${pad((id % 12) + 1)}.${pad(id, 5)}`;
    case "openalex":
      return `W${4391000000 + id}`;
    case "semantic_scholar":
      return `corpusid:${1751000 + id}`;
    case "pubmed":
    case "europepmc":
      return `PMID${38000000 + id}`;
    default:
      return `10.1000/${source}.${id}`;
  }
}

export function makePaper(rng: Rng, id: number, topicIndex: number, source: string): Paper {
  const topic = topicAt(topicIndex);
  const pattern = rng.pick(topic.patterns);
  const filler = rng.pick(topic.fillers);
  const title = titleOf(pattern, filler, rng.pick(SUFFIXES));
  const authorCount = rng.int(1, 4);
  const authors: string[] = [];
  for (let i = 0; i < authorCount; i++) {
    const name = `${rng.pick(FIRST)} ${rng.pick(LAST)}`;
    if (!authors.includes(name)) authors.push(name);
  }
  const preprint = source === "arxiv" || source === "biorxiv" || source === "medrxiv";
  const doi = preprint && rng.chance(0.5) ? null : `10.${rng.int(1000, 9999)}/${source}.${id}`;
  const date = rng.chance(0.004) ? null : randomDate(rng);
  return {
    id,
    source_repository: source,
    external_id: externalId(source, id),
    doi,
    title,
    authors: authors.join(", "),
    abstract: rng.chance(0.1)
      ? null
      : `${topic.abstract.replace("{x}", filler)} ${FINDINGS[id % FINDINGS.length] ?? ""}`.trim(),
    publication_date: date,
    url: `https://example.org/${source}/${id}`,
    categories: topic.field,
    metadata_hash: `hash-${source}-${pad(id, 6)}`,
    first_seen_at: seenAt(rng),
  };
}

/** The first papers are hand-written so tests can name them (same roles as resmon's own fixture). */
export function namedPapers(): Paper[] {
  const base = {
    abstract: "A study of diffusion models applied to turbulence.",
    categories: "cs.LG, physics.flu-dyn",
  };
  return [
    {
      id: 1,
      source_repository: "arxiv",
      external_id: "2401.00001",
      doi: "10.48550/arXiv.2401.00001",
      title: "Diffusion models for turbulent flow reconstruction",
      authors: "Ada Lovelace, Alan Turing, Grace Hopper",
      publication_date: "2026-01-15",
      url: "https://example.org/arxiv/2401.00001",
      metadata_hash: "hash-arxiv-0001",
      first_seen_at: "2026-02-01 05:37:00",
      ...base,
    },
    {
      id: 2,
      source_repository: "openalex",
      external_id: "W4391000001",
      doi: "10.48550/arXiv.2401.00001",
      title: "Diffusion models for turbulent flow reconstruction",
      authors: "Ada Lovelace, Alan Turing, Grace Hopper",
      publication_date: "2026-01-15",
      url: "https://example.org/openalex/W4391000001",
      metadata_hash: "hash-arxiv-0001",
      first_seen_at: "2026-02-01 06:14:00",
      ...base,
      categories: "cs.LG",
    },
    {
      id: 3,
      source_repository: "pubmed",
      external_id: "PMID38000003",
      doi: "10.1000/pubmed.3",
      title: "Vaccine immune response in a multi-site cohort",
      authors: "Marie Curie, Barbara Liskov",
      abstract: "Antibody titres across a vaccine trial cohort.",
      publication_date: "2025-11-02",
      url: "https://example.org/pubmed/38000003",
      categories: "q-bio.CB",
      metadata_hash: "hash-pubmed-0003",
      first_seen_at: "2026-02-01 06:51:00",
    },
    {
      id: 4,
      source_repository: "crossref",
      external_id: "10.1000/xyz123",
      doi: "10.1000/xyz123",
      title: "Ångström-scale imaging of catalytic surfaces",
      authors: "José González, Björn Östergaard",
      abstract: null,
      publication_date: "2024-06-30",
      url: "https://example.org/doi/10.1000/xyz123",
      categories: "cond-mat.mtrl-sci",
      metadata_hash: "hash-crossref-0001",
      first_seen_at: "2026-02-01 07:28:00",
    },
    {
      id: 5,
      source_repository: "biorxiv",
      external_id: "10.1101/2025.03.01.000005",
      doi: null,
      title: "Protein folding structure prediction from sparse contacts",
      authors: "Rosalind Franklin",
      abstract: "Contact maps for protein folding structure prediction.",
      publication_date: "2025-03-01",
      url: "https://example.org/biorxiv/5",
      categories: "q-bio.BM",
      metadata_hash: "hash-biorxiv-0005",
      first_seen_at: "2026-02-01 08:05:00",
    },
    {
      id: 6,
      source_repository: "medrxiv",
      external_id: "10.1101/2023.03.14.000006",
      doi: "10.1101/2023.03.14.000006",
      title: "Immune response after vaccine boosters",
      authors: "Hedy Lamarr, Tim Berners-Lee",
      abstract: "Boosters and antibody response.",
      publication_date: "2023-03-14",
      url: "https://example.org/medrxiv/6",
      categories: "q-bio.CB",
      metadata_hash: "hash-medrxiv-0006",
      first_seen_at: "2026-02-01 08:42:00",
    },
    {
      id: 7,
      source_repository: "europepmc",
      external_id: "PMID38000007",
      doi: "10.1000/retracted.7",
      title: "Retraction research integrity in gene editing trials",
      authors: "Jane Doe, Edsger Dijkstra",
      abstract: "A later-retracted study of crispr gene editing outcomes.",
      publication_date: "2022-12-01",
      url: "https://example.org/europepmc/38000007",
      categories: "q-bio.GN",
      metadata_hash: "hash-europepmc-0007",
      first_seen_at: "2026-02-01 05:37:00",
    },
    {
      id: 8,
      source_repository: "semantic_scholar",
      external_id: "corpusid:1751762",
      doi: "10.1000/s2.1751762",
      title: "Attention over sparse graphs",
      authors: "Ada Lovelace",
      abstract: "Sparse attention for graph learning.",
      publication_date: "2026-02-20",
      url: "https://example.org/s2/1751762",
      categories: "cs.LG",
      metadata_hash: "hash-s2-0001",
      first_seen_at: "2026-02-01 09:56:00",
    },
  ];
}

/** The hand-written papers first, then generated ones on random topics, all from one seeded stream. */
export function buildPapers(rng: Rng, count: number): Paper[] {
  const papers = namedPapers();
  for (let id = papers.length + 1; id <= count; id++) {
    papers.push(makePaper(rng, id, rng.int(0, TOPICS.length - 1), rng.pick(CORPUS_SOURCES)));
  }
  return papers;
}

/** A topic's papers: those whose title carries every one of its words. */
export function papersOnTopic(papers: Paper[], topicIndex: number): Paper[] {
  const topic = TOPICS[topicIndex];
  if (!topic) return [];
  return papers.filter((p) => topic.words.every((w) => p.title.toLowerCase().includes(w)));
}
