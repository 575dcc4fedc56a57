/**
 * Where the docs quote each figure: a pattern whose groups hold, in order, the figures named beside
 * it. (Counts of tools, reads and writes have their own home, packages/contract/test/readme.test.ts:
 * the docs state none the table would have to keep in step.)
 */
export interface Place {
  file: string;
  pattern: RegExp;
  figures: string[];
}

export const PLACES: Place[] = [
  // The current contract version and its baseline, wherever a doc names them as current.
  ...["README.md", "packages/contract/README.md"].map((file) => ({
    file,
    pattern: /tool surface, contract (\d+\.\d+):/,
    figures: ["contract.version"],
  })),
  { file: "README.md", pattern: /│ (\d+\.\d+)\) → contract\/\*\.json/, figures: ["contract.version"] },
  {
    file: "README.md",
    pattern: /the committed baseline \(`(contract\/baseline\/\d+\.\d+\.json)`\)/,
    figures: ["contract.baseline"],
  },
  ...(
    [
      ["whole list", "tools_list"],
      ["what a model reads of it: each name, description, inputSchema", "tools_list.model_read"],
      ["without output schemas", "tools_list.no_output"],
      ["read-only session \\(the reads only\\)", "tools_list.read_only"],
      ["contract 1\\.0's 25 tools alone \\([^)]*\\)", "tools_list_1_0"],
    ] as const
  ).map(([row, id]) => ({
    file: "README.md",
    pattern: new RegExp(`^\\| ${row}\\s*\\| ([\\d,]+) B, ([\\d,]+) tokens`, "m"),
    figures: [`${id}.bytes`, `${id}.tokens`],
  })),
  ...(
    [
      ["with output schemas \\(`tools\\.json`\\)", "tools_list_1_0"],
      ["what a model reads: each name, description and inputSchema", "tools_list_1_0.model_read"],
      ["without output schemas", "tools_list_1_0.no_output"],
      ["read-only session \\([^)]*\\)", "tools_list_1_0.read_only"],
    ] as const
  ).map(([row, id]) => ({
    file: "contract/README.md",
    pattern: new RegExp(`^\\| [^|\\n]*${row}\\s*\\|[^|\\n]*\\| ([\\d,]+)\\s*\\| ([\\d,]+)\\s*\\|`, "m"),
    figures: [`${id}.bytes`, `${id}.tokens`],
  })),
  {
    file: "contract/README.md",
    pattern: /The four scan tools of 1\.1 add ([\d,]+) bytes to the list/,
    figures: ["tools_list.since_1_0.bytes"],
  },
  {
    file: "packages/mcp-server/README.md",
    pattern:
      /`tools\/list` is ([\d,]+) bytes with them and ([\d,]+) without \(([\d,]+) vs ([\d,]+) tokens, cl100k_base; ([\d,]+) bytes read-only\)/,
    figures: [
      "tools_list.bytes",
      "tools_list.no_output.bytes",
      "tools_list.tokens",
      "tools_list.no_output.tokens",
      "tools_list.read_only.bytes",
    ],
  },
  {
    file: "packages/mcp-server/README.md",
    pattern: /`serverInfo` is `\{name: "resmon", version: <package version>, description: "([^"]+)"\}`/,
    figures: ["server.description"],
  },
  ...(["demo", "small"] as const).map((seed) => ({
    file: "packages/testkit/README.md",
    pattern: new RegExp(`^\\| \`${seed}\`\\s*${"\\| (\\d+)\\s*".repeat(6)}\\|`, "m"),
    figures: ["papers", "embedded", "routines", "executions", "profiles", "matches"].map(
      (field) => `seed.${seed}.${field}`,
    ),
  })),
  {
    file: "README.md",
    pattern:
      /`pnpm bench --short --record` rewrites \(`pnpm figures --write` then updates these figures; a test holds them to the file\): on ([\s\S]+?), cold start to tools\/list ([\s\S]+?) in the 2025 era and ([\s\S]+?) in the 2026-07-28 era, against floors of ([\s\S]+?) and ([\s\S]+?) \(one per era, measured beside it\); per call, health ([\s\S]+?) median and ([\s\S]+?) p99 over the direct request, a 100-paper `search_corpus` page ([\s\S]+?) median; tools\/list ([\s\S]+?), the largest paginated answer ([\s\S]+?)\. Against their goals in that run, ([\s\S]+?)\.(?=\n)/,
    figures: [
      "bench.short.date",
      "bench.short.cold-start-to-tools-list-2025-era-initialize-built-server-median",
      "bench.short.cold-start-to-tools-list-2026-07-28-era-server-discover-built-server-median",
      "bench.short.cold-start-to-tools-list-2025-era-initialize-built-server-median.floor",
      "bench.short.cold-start-to-tools-list-2026-07-28-era-server-discover-built-server-median.floor",
      "bench.short.per-call-overhead-health-small-answer-calls-median",
      "bench.short.per-call-overhead-health-small-answer-p99",
      "bench.short.per-call-overhead-search-corpus-limit-large-answer-calls-median",
      "bench.short.tools-list-tools-bytes-tokens-vs-budget",
      "bench.short.largest-paginated-answer-at-limit-find-similar",
      "bench.short.readme-goals",
    ],
  },
  {
    file: "README.md",
    pattern:
      /In the last full run \(`tools\/bench\/results\/full\.json`, ([\s\S]+?)\), per call, beside the bridge,\s+health ([\s\S]+?) vs ([\s\S]+?) and a 100-paper page ([\s\S]+?) vs ([\s\S]+?) over the direct request\./,
    figures: [
      "bench.full.date",
      "bench.full.per-call-overhead-health-small-answer-median-vs-the-minimal-stdio-bridge-s-both-in-one-loop-calls-each",
      "bench.full.per-call-overhead-health-small-answer-median-vs-the-minimal-stdio-bridge-s-both-in-one-loop-calls-each.floor",
      "bench.full.per-call-overhead-search-corpus-limit-large-answer-median-vs-the-minimal-stdio-bridge-s-both-in-one-loop-calls-each",
      "bench.full.per-call-overhead-search-corpus-limit-large-answer-median-vs-the-minimal-stdio-bridge-s-both-in-one-loop-calls-each.floor",
    ],
  },
  {
    file: "README.md",
    pattern:
      /What a user waits on at start, in the last full run \(`tools\/bench\/results\/full\.json`, ([\s\S]+?)\): spawn → tools\/list answered ([\s\S]+?) in the 2025 era and ([\s\S]+?) in the 2026-07-28 era, against the floor server's ([\s\S]+?) and ([\s\S]+?); spawn → the first tool call answered ([\s\S]+?) and ([\s\S]+?), against the floor server's ([\s\S]+?) and ([\s\S]+?) \(the same floor asking resmon once: ([\s\S]+?) and ([\s\S]+?)\)\. Memory held: RSS after 10,000 calls ([\s\S]+?) \(the floor server ([\s\S]+?)\), peak ([\d.,]+ MiB)\./,
    figures: [
      "bench.full.date",
      ...["2025-era-initialize", "2026-07-28-era-server-discover"].map(
        (era) => `bench.full.spawn-tools-list-answered-${era}-built-server-median-vs-the-floor-server-s`,
      ),
      ...["2025-era-initialize", "2026-07-28-era-server-discover"].map(
        (era) =>
          `bench.full.spawn-tools-list-answered-${era}-built-server-median-vs-the-floor-server-s.floor`,
      ),
      ...["2025-era-initialize", "2026-07-28-era-server-discover"].map(
        (era) =>
          `bench.full.spawn-first-tool-call-health-answered-${era}-built-server-median-vs-the-floor-server-s`,
      ),
      ...["2025-era-initialize", "2026-07-28-era-server-discover"].map(
        (era) =>
          `bench.full.spawn-first-tool-call-health-answered-${era}-built-server-median-vs-the-floor-server-s.floor`,
      ),
      ...["2025-era-initialize", "2026-07-28-era-server-discover"].map(
        (era) =>
          `bench.full.spawn-first-tool-call-health-answered-${era}-floor-server-asking-resmon-once-info-median-vs-the-floor-server-s`,
      ),
      "bench.full.rss-after-10-000-health-calls-after-a-forced-full-gc-vs-the-floor-server-s-same-calls",
      "bench.full.rss-after-10-000-health-calls-after-a-forced-full-gc-vs-the-floor-server-s-same-calls.floor",
      "bench.full.peak-rss-over-the-memory-run-vs-the-floor-server-s",
    ],
  },
  {
    file: "packages/testkit/README.md",
    pattern:
      /`resmon-testkit serve` was ready in ([\s\S]+?) with `demo` and ([\s\S]+?) with `small`, including Node's own start \(([\s\S]+?) for a bare `node`\)/,
    figures: [
      "bench.short.stand-in-ready-resmon-testkit-serve-seed-demo-median",
      "bench.short.stand-in-ready-resmon-testkit-serve-seed-small-median",
      "bench.short.stand-in-ready-resmon-testkit-serve-seed-demo-median.floor",
    ],
  },
  {
    file: "README.md",
    pattern:
      /`pnpm bench --short`'s scan rows, in `tools\/bench\/results\/short\.json`\): ([\s\S]+?) and ([\d,]+) calls to the tools by sweep, ([\s\S]+?) and ([\d,]+) calls by corpus/,
    figures: [
      "bench.short.whole-scan-over-stdio-retrieval-sweep-standard-profile-demo-data-wall-time-scan-start-scan-result",
      "bench.short.whole-scan-over-stdio-retrieval-sweep-standard-profile-demo-data-tool-calls",
      "bench.short.whole-scan-over-stdio-retrieval-corpus-standard-profile-demo-data-wall-time-scan-start-scan-result",
      "bench.short.whole-scan-over-stdio-retrieval-corpus-standard-profile-demo-data-tool-calls",
    ],
  },
  {
    file: "packages/mcp-server/README.md",
    pattern: /<!-- variables:begin -->\n([\s\S]*?)<!-- variables:end -->/,
    figures: ["config.variables"],
  },
  {
    file: "README.md",
    pattern: /<!-- scan-quality:begin -->\n([\s\S]*?)<!-- scan-quality:end -->/,
    figures: ["bench.scan-quality.table"],
  },
  {
    file: "README.md",
    pattern: /<!-- reliability-run:begin -->\n([\s\S]*?)<!-- reliability-run:end -->/,
    figures: ["reliability.full.run"],
  },
  {
    file: "docs/releasing.md",
    pattern:
      /installs it is `pnpm bench`'s figure: ([\s\S]+?) to `tools\/list` in the 2025 era and ([\s\S]+?) in the 2026-07-28 era in the last recorded run/,
    figures: [
      "bench.short.cold-start-to-tools-list-2025-era-initialize-packed-tarball-installed-as-npx-does-median",
      "bench.short.cold-start-to-tools-list-2026-07-28-era-server-discover-packed-tarball-installed-as-npx-does-median",
    ],
  },
  {
    file: "docs/releasing.md",
    pattern: /tarball of about (\d+) kB \(for (\d+\.\d+\.\d+),/,
    figures: ["server.tarball.kb", "server.version"],
  },
];

/** Past runs, each dated, are records rather than claims about today: not checked. */
export const UNCHECKED_DOCS = ["tools/bench/RESULTS.md"];
