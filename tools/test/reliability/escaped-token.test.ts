/**
 * Escaped token (issue 34): a backend that echoes the token it was sent, written as resmon or an
 * export format may write it (BibTeX's `\_`, JSON `\u` escapes, percent-encoding, inside CSV and RIS
 * fields), character by character in generated mixes. No form of it reaches stdout, stderr, or any
 * file a scan writes (evidence.bib, .md, .json included); the finder decodes every form before it
 * looks, so it does not share the scrubber's pattern.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { followScan, scanStartArgs, type Testkit } from "@resmon/testkit";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kitFor, restartKit, tempDir } from "../../src/reliability/context.js";
import {
  type CharForm,
  exportText,
  holdsToken,
  SPLITS,
  tokenForms,
  tokenSplit,
  writeToken,
} from "../../src/reliability/escaped.js";
import { accountForEveryByte } from "../../src/reliability/lifecycle.js";
import { SERVER_CLI } from "../../src/reliability/proc.js";
import { countCases, holds, note } from "../../src/reliability/record.js";
import { SCALE, SEED, scaled, testTimeout } from "../../src/reliability/scale.js";
import { type ScanServer, scanServer } from "../../src/reliability/scan.js";

const EXPORT_RUNS = scaled(200, 8);
/** C0 but tab and line feed, DEL, C1: what no file a person opens may hold (a string: the linter refuses a literal). */
const CONTROL_CLASS = "[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f]";
const SCAN_RUNS = scaled(6, 1);
const FORMATS = ["bibtex", "ris", "csv", "json"] as const;

let kit: Testkit;
let server: ScanServer;
let dataDir: string;
/** Every stdout line and all stderr the server wrote, to look through for any form of the token. */
const written: string[] = [];

/** The findings of `holdsToken` over what the server wrote since `from` (a count of `written`). */
const leakedSince = (from: number) => written.slice(from).filter((t) => holdsToken(t, kit.token));

/** A row the stand-in's corpus search answers with, as resmon writes one. */
type Row = {
  id: number;
  title: string;
  authors: string;
  abstract: string;
  publication_date: string;
  doi: string;
  source_repository: string;
  external_id: string;
};

/**
 * One quick corpus scan over `rows`: the search answers them, the JSON export echoes them and the
 * BibTeX export writes `bibTitle(row)` as each entry's title (the verify step reads the JSON one,
 * the evidence the BibTeX one: each its own way). Answers the scan's directory.
 */
async function scanOver(rows: Row[], bibTitle: (row: Row) => string): Promise<string> {
  kit.setFault("/api/explorer/search", {
    kind: "status",
    status: 200,
    body: { results: rows, has_more: false, next_cursor: null, sort: "similarity" },
  });
  kit.setFault("/api/export/references", {
    kind: "answer",
    answer: (body) => {
      const ids = new Set((body as { document_ids?: number[] }).document_ids ?? []);
      const picked = rows.filter((r) => ids.has(r.id));
      if ((body as { format?: string }).format !== "bibtex") {
        return {
          status: 200,
          body: picked.map(({ id: _id, ...r }) => ({ ...r, url: null, categories: "" })),
        };
      }
      return { status: 200, body: picked.map((r) => exportText("bibtex", bibTitle(r))).join("\n") };
    },
  });
  const args = scanStartArgs({ scanId: crypto.randomUUID(), retrieval: "corpus", profile: "quick" });
  try {
    await followScan(server.call, args);
  } finally {
    kit.clearFaults();
  }
  return join(dataDir, String(args.scan_id));
}

describe.skipIf(!existsSync(SERVER_CLI))(`escaped token (scale ${SCALE}, seed ${SEED})`, () => {
  beforeAll(async () => {
    kit = await kitFor({ stateDir: tempDir("escaped"), seed: "demo" });
    // BibTeX escapes only the underscore: a token with one, as about half of resmon's have.
    for (let i = 0; i < 40 && !kit.token.includes("_"); i++) await restartKit(kit);
    expect(kit.token).toContain("_");
    kit.setAdmission({ maxConcurrent: 4, runDurationMs: 60 });
    dataDir = join(tempDir("escaped-data"), "scans");
    server = await scanServer("escaped", kit, dataDir, 400);
    server.proc.onLine((line) => written.push(line));
    server.proc.onStderr((text) => written.push(text));
  }, 60_000);
  afterAll(async () => {
    await server?.client.close();
    await kit?.stop();
  });

  it(
    "export_references in each format, the token in generated forms: none on stdout or stderr",
    async (ctx) => {
      const seen = new Map<string, number>();
      await holds(
        ctx,
        fc.asyncProperty(
          fc.constantFrom(...FORMATS),
          tokenForms,
          tokenSplit,
          async (format, forms: CharForm[], split) => {
            const from = written.length;
            const echoed = writeToken(kit.token, forms, split);
            kit.setFault("/api/export/references", {
              kind: "status",
              status: 200,
              body: exportText(format, echoed),
            });
            try {
              const got = await server.outcome("export_references", { doc_ids: [1], format });
              expect(got.kind, JSON.stringify(got).slice(0, 300)).toBe("success");
              const text = String((got.kind === "success" && got.body.text) || "");
              expect(text).toContain("<redacted>");
              expect(holdsToken(text, kit.token)).toBe(false);
              expect(leakedSince(from)).toEqual([]);
            } finally {
              kit.clearFaults();
            }
            seen.set(format, (seen.get(format) ?? 0) + 1);
          },
        ),
        { numRuns: EXPORT_RUNS, seed: SEED },
      );
      note(ctx, `exports ${[...seen].map(([f, n]) => `${f} ${n}`).join(", ")}: 0 forms of the token written`);
    },
    testTimeout(60_000),
  );

  it(
    "each spelling issue 41 names, one at a time, in each export format: none on stdout or stderr",
    async (ctx) => {
      const t = kit.token;
      const spellings: [string, string][] = [
        ["{\\textunderscore}", writeToken(t, ["latex_braced"])],
        ["{-} and BibTeX's braces", writeToken(t, ["braced"])],
        ["&#95; (decimal)", writeToken(t, ["html_dec"])],
        ["&#x5f; (hex)", writeToken(t, ["html_hex"])],
        ["&lowbar; (named)", writeToken(t, ["html_named"])],
        ["&amp;#95; (the & escaped again)", writeToken(t, ["html_amp"])],
        ["URL encoding", writeToken(t, ["percent"])],
        ...SPLITS.map((by): [string, string] => [
          `split by ${JSON.stringify(by)}`,
          writeToken(t, ["plain"], { at: 21, by }),
        ]),
      ];
      let cases = 0;
      for (const [label, echoed] of spellings) {
        for (const format of FORMATS) {
          const from = written.length;
          kit.setFault("/api/export/references", {
            kind: "status",
            status: 200,
            body: exportText(format, echoed),
          });
          try {
            const got = await server.outcome("export_references", { doc_ids: [1], format });
            expect(got.kind, `${label} in ${format}: ${JSON.stringify(got).slice(0, 300)}`).toBe("success");
            const text = String((got.kind === "success" && got.body.text) || "");
            expect(holdsToken(text, t), `${label} in ${format}`).toBe(false);
            expect(leakedSince(from), `${label} in ${format}`).toEqual([]);
          } finally {
            kit.clearFaults();
          }
          cases++;
        }
      }
      countCases(ctx, cases);
      note(ctx, `${spellings.length} spellings x ${FORMATS.length} formats: 0 forms of the token written`);
    },
    testTimeout(60_000),
  );

  it(
    "resmon's own text (health version, a search's titles) carrying a form: none in the answers",
    async (ctx) => {
      const from = written.length;
      const bib = writeToken(kit.token, ["bibtex"]);
      const pct = writeToken(kit.token, ["percent"]);
      const health = (await (
        await fetch(`${kit.baseUrl}/api/health`, { headers: { authorization: `Bearer ${kit.token}` } })
      ).json()) as Record<string, unknown>;
      kit.setFault("/api/health", {
        kind: "status",
        status: 200,
        body: { ...health, version: `2.3.0+${bib}` },
      });
      kit.setFault("/api/explorer/search", {
        kind: "status",
        status: 200,
        body: {
          results: [
            { id: 1, title: `T ${bib}`, authors: pct, abstract: null, doi: null, source_repository: "arxiv" },
          ],
          has_more: false,
          next_cursor: null,
          total: 1,
          sort: "newest",
        },
      });
      try {
        for (const [tool, args] of [
          ["health", {}],
          ["search_corpus", { query: "folding" }],
        ] as const) {
          const got = await server.outcome(tool, args);
          expect(got.kind, `${tool}: ${JSON.stringify(got).slice(0, 300)}`).not.toBe("bad");
        }
      } finally {
        kit.clearFaults();
      }
      expect(leakedSince(from)).toEqual([]);
      countCases(ctx, 2);
    },
    testTimeout(30_000),
  );

  it(
    "a scan whose titles and BibTeX export carry generated forms: no file of it holds one",
    async (ctx) => {
      let files = 0;
      await holds(
        ctx,
        fc.asyncProperty(tokenForms, tokenSplit, async (forms, split) => {
          const from = written.length;
          const echoed = writeToken(kit.token, forms, split);
          const bibEchoed = writeToken(kit.token, ["bibtex"]);
          const rows = Array.from({ length: 12 }, (_, i) => ({
            id: 910_000 + i,
            title: `Protein folding ${echoed} ${i}`,
            authors: `Author ${bibEchoed}`,
            abstract: `Protein structure prediction, ${echoed}.`,
            publication_date: "2024-01-01",
            doi: `10.1000/echo.${i}`,
            source_repository: "arxiv",
            external_id: `echo-${i}`,
          }));
          const dir = await scanOver(rows, (r) => `${r.title} ${bibEchoed}`);
          const names = readdirSync(dir);
          for (const f of ["evidence.json", "evidence.md", "evidence.bib"]) expect(names).toContain(f);
          const holding = names.filter((f) => holdsToken(readFileSync(join(dir, f), "utf8"), kit.token));
          expect(holding).toEqual([]);
          expect(leakedSince(from)).toEqual([]);
          files += names.length;
        }),
        { numRuns: SCAN_RUNS, seed: SEED },
      );
      note(
        ctx,
        `${SCAN_RUNS} scan(s) with the token echoed into every row: ${files} files written, 0 holding a form of it`,
      );
    },
    testTimeout(120_000),
  );

  it(
    "a scan whose titles and BibTeX carry ESC, BEL, OSC 52 and C1 (issue 41 point 5): no evidence file holds one",
    async (ctx) => {
      const hostile = "\u001b]52;c;aGVsbG8=\u0007\u001b[2J\u009b31m\u0000\r";
      const rows = Array.from({ length: 12 }, (_, i) => ({
        id: 920_000 + i,
        title: `Protein folding ${hostile} ${i}`,
        authors: `Author\u0007 ${i}`,
        abstract: `Protein structure prediction.${hostile}`,
        publication_date: "2024-01-01",
        doi: `10.1000/ctl.${i}`,
        source_repository: "arxiv",
        external_id: `ctl-${i}`,
      }));
      const dir = await scanOver(rows, (r) => r.title);
      const control = new RegExp(CONTROL_CLASS);
      const found: string[] = [];
      for (const f of ["evidence.md", "evidence.bib", "evidence.json"]) {
        const text = readFileSync(join(dir, f), "utf8");
        if (control.test(text)) found.push(`${f}: a raw control character`);
        // What a viewer that decodes the JSON strings (jq -r) would write out.
        if (
          f.endsWith(".json") &&
          control.test(
            JSON.stringify(JSON.parse(text), (_k, v) => v).replace(/\\u00[0-9a-f]{2}/gi, (e) =>
              String.fromCharCode(Number.parseInt(e.slice(2), 16)),
            ),
          )
        )
          found.push(`${f}: an escaped control character in a string`);
      }
      expect(found).toEqual([]);
      countCases(ctx, 3);
      note(
        ctx,
        "1 scan with ESC/BEL/OSC 52/C1 in every title: 0 control characters in evidence.md, .bib, .json",
      );
    },
    testTimeout(120_000),
  );

  accountForEveryByte();
});
