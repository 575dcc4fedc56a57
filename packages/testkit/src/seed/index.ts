import type {
  Delivery,
  DeliveryTarget,
  Execution,
  JsonObject,
  Lifecycle,
  Paper,
  Profile,
  ProfileMatch,
  Routine,
  SourceOutcome,
  Store,
} from "../model.js";
import { createRng, type Rng } from "../prng.js";
import { CORPUS_SOURCES, makePaper, namedPapers, TOPICS } from "./corpus.js";
import { defaultSettings } from "./settings.js";
import { watchdogFindings } from "./watchdog.js";

export type SeedName = "demo" | "small";

const SIZES: Record<SeedName, { papers: number; graphRun: number; extraRuns: number }> = {
  demo: { papers: 3000, graphRun: 420, extraRuns: 40 },
  small: { papers: 48, graphRun: 14, extraRuns: 4 },
};

export const SEED_NOW = "2026-11-30T06:00:00+00:00";
const OLD_RUNTIME = "00000000-0000-4000-8001-000000000041";

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

function outcome(
  source: string,
  status: SourceOutcome["status"],
  count: number,
  extra: Partial<SourceOutcome> = {},
): SourceOutcome {
  return {
    source,
    status,
    result_count: count,
    zero_reason: null,
    zero_detail: null,
    in_part: false,
    error_message: null,
    recorded_at: "2026-02-01 05:37:00",
    sent: [],
    ...extra,
  };
}

function baseExecution(id: number, over: Partial<Execution>): Execution {
  return {
    id,
    execution_type: "deep_sweep",
    routine_id: null,
    saved_configuration_id: null,
    saved_configuration_name: null,
    parameters: null,
    start_time: "2026-02-01T06:00:00",
    end_time: "2026-02-01T06:12:00",
    status: "completed",
    result_count: 0,
    new_result_count: 0,
    log_path: null,
    result_path: null,
    error_message: null,
    progress_events: null,
    current_stage: null,
    owner_pid: 10000 + id * 7,
    owner_runtime_id: OLD_RUNTIME,
    last_seen_at_utc: `2026-03-01T07:${pad((id * 7) % 60)}:00.000001+00:00`,
    interrupted_reason: null,
    restarted_from: null,
    cancel_reason: null,
    dedup: null,
    request_id: null,
    selection: null,
    sources: [],
    document_ids: [],
    new_document_ids: [],
    query: null,
    keywords: null,
    date_from: null,
    date_to: null,
    max_results: null,
    ...over,
  };
}

function papersOnTopic(papers: Paper[], topicIndex: number): Paper[] {
  const topic = TOPICS[topicIndex];
  if (!topic) return [];
  return papers.filter((p) => topic.words.every((w) => p.title.toLowerCase().includes(w)));
}

function buildPapers(rng: Rng, count: number): Paper[] {
  const papers = namedPapers();
  for (let id = papers.length + 1; id <= count; id++) {
    papers.push(makePaper(rng, id, rng.int(0, TOPICS.length - 1), rng.pick(CORPUS_SOURCES)));
  }
  return papers;
}

function routines(): Routine[] {
  const common = {
    email_ai_summary_enabled: false,
    storage_settings: null,
    last_executed_at: null,
    deliveries: [] as Delivery[],
  };
  const t = (id: number, channel: DeliveryTarget["channel"], snapshot: string): DeliveryTarget => ({
    id,
    channel,
    enabled: true,
    snapshot,
  });
  return [
    {
      id: 1,
      name: "Turbulence watch",
      schedule_cron: "0 7 * * 1",
      parameters: { query: "diffusion turbulence", repositories: ["arxiv", "openalex"] },
      is_active: true,
      email_enabled: true,
      ai_enabled: true,
      notify_on_complete: true,
      ai_settings: '{"lanes": ["subscription"]}',
      intent: "Anything new on learned turbulence closures.",
      created_at: "2026-02-01 05:37:00",
      updated_at: "2026-02-01 05:37:00",
      missed: [
        {
          id: 1,
          routine_id: 1,
          due_at_utc: "2026-03-01T07:37:00.000001+00:00",
          observed_at_utc: "2026-03-01T07:37:00.000001+00:00",
          disposition: "ran_late",
        },
        {
          id: 2,
          routine_id: 1,
          due_at_utc: "2026-03-01T08:14:00.000002+00:00",
          observed_at_utc: "2026-03-01T08:14:00.000002+00:00",
          disposition: "recorded",
        },
      ],
      targets: [
        t(1, "email", ""),
        t(2, "folder", "/does/not/exist/reports"),
        t(3, "webhook", "https://example.org/resmon-receiver"),
      ],
      ...common,
    },
    {
      id: 2,
      name: "Retraction watch",
      schedule_cron: "0 8 * * *",
      parameters: { query: "retraction", repositories: ["europepmc"] },
      is_active: true,
      email_enabled: false,
      ai_enabled: true,
      notify_on_complete: true,
      ai_settings: '{"lanes": ["subscription"]}',
      intent: null,
      created_at: "2026-02-01 06:14:00",
      updated_at: "2026-02-01 06:14:00",
      missed: [
        {
          id: 3,
          routine_id: 2,
          due_at_utc: "2026-03-01T08:51:00.000003+00:00",
          observed_at_utc: "2026-03-01T08:51:00.000003+00:00",
          disposition: "recorded",
        },
      ],
      targets: [
        t(4, "feed", "/does/not/exist/feed.xml"),
        t(5, "folder", "/does/not/exist/retractions"),
        t(7, "webhook", "http://127.0.0.1:9099/hook"),
        { id: 6, channel: "email", enabled: false, snapshot: "" },
      ],
      ...common,
    },
    {
      id: 3,
      name: "Graph learning digest",
      schedule_cron: "30 6 * * 1-5",
      parameters: { query: "graph neural network", repositories: ["arxiv", "semantic_scholar", "openalex"] },
      is_active: false,
      email_enabled: false,
      ai_enabled: false,
      notify_on_complete: false,
      ai_settings: null,
      intent: "Graph neural networks for molecules and message passing theory.",
      created_at: "2026-03-02 09:00:00",
      updated_at: "2026-06-01 09:00:00",
      missed: [],
      targets: [],
      ...common,
    },
    {
      id: 4,
      name: "Preprint watch: protein folding",
      schedule_cron: "0 5 * * *",
      parameters: { query: "protein folding", repositories: ["biorxiv", "medrxiv", "europepmc"] },
      is_active: true,
      email_enabled: false,
      ai_enabled: false,
      notify_on_complete: true,
      ai_settings: null,
      intent: null,
      created_at: "2026-04-01 05:00:00",
      updated_at: "2026-04-01 05:00:00",
      missed: [],
      targets: [t(8, "email", "")],
      ...common,
    },
  ];
}

function fixtureExecutions(): Execution[] {
  const reasons = ["owner_dead", "daemon_restart", "unknown"] as const;
  const list: Execution[] = [
    baseExecution(1, {
      execution_type: "deep_dive",
      routine_id: 1,
      saved_configuration_id: 1,
      saved_configuration_name: "Weekly turbulence dive",
      parameters: {
        query: "diffusion turbulence",
        repositories: ["arxiv", "ieee", "openalex", "semantic_scholar"],
      },
      result_count: 12,
      new_result_count: 3,
      log_path: "/does/not/exist/run-0.log",
      result_path: "/does/not/exist/run-0.json",
      progress_events:
        '[{"stage": "search", "source": "arxiv", "count": 9}, {"stage": "search", "source": "openalex", "count": 3}, {"stage": "dedup", "removed": 1}]',
      dedup: { total: 12, new: 9, duplicates: 2, invalid: 1, cross_source: 1 },
      query: "diffusion turbulence",
      keywords: ["diffusion", "turbulence"],
      sources: [
        outcome("arxiv", "ok", 9, { sent: ['all:"diffusion" AND all:"turbulence"'] }),
        outcome("ieee", "skipped_missing_key", 0, {
          zero_reason: "missing_credential",
          recorded_at: "2026-02-01 07:28:00",
        }),
        outcome("openalex", "ok", 3, {
          recorded_at: "2026-02-01 06:14:00",
          sent: ["search=diffusion turbulence"],
        }),
        outcome("semantic_scholar", "error", 0, {
          zero_reason: "upstream_error",
          error_message: "HTTP 503 from the upstream",
          recorded_at: "2026-02-01 06:51:00",
        }),
      ],
      document_ids: [1, 2, 8],
      new_document_ids: [8],
    }),
    baseExecution(2, {
      start_time: "2026-02-02T06:00:00",
      end_time: "2026-02-02T06:12:00",
      status: "failed",
      saved_configuration_id: 2,
      saved_configuration_name: "Broad sweep",
      result_count: 13,
      new_result_count: 4,
      error_message: "Upstream returned HTTP 503",
      query: "diffusion",
      keywords: ["diffusion"],
      selection: ["crossref"],
      sources: [
        outcome("crossref", "error", 0, {
          zero_reason: "upstream_failure",
          zero_detail: { status: 503 },
          error_message: "HTTP 503",
        }),
      ],
    }),
    baseExecution(3, {
      execution_type: "automated_sweep",
      routine_id: 2,
      start_time: "2026-02-03T06:00:00",
      end_time: "2026-02-03T06:12:00",
      result_count: 7,
      new_result_count: 5,
      dedup: { total: 7, new: 7, duplicates: 0, invalid: 0, cross_source: 0 },
      query: "retraction",
      keywords: ["retraction"],
      selection: ["europepmc"],
      sources: [outcome("europepmc", "ok", 7, { recorded_at: "2026-02-03 06:10:00", sent: ["retraction"] })],
      document_ids: [7],
      new_document_ids: [7],
    }),
    baseExecution(4, {
      execution_type: "deep_dive",
      start_time: "2026-02-04T06:00:00",
      end_time: "2026-02-04T06:12:00",
      status: "cancelled",
      cancel_reason: "user cancelled from the Dashboard",
      query: "vaccine",
      sources: [outcome("pubmed", "cancelled", 0, { zero_reason: "cancelled" })],
    }),
    baseExecution(5, {
      start_time: "2026-02-05T06:00:00",
      end_time: "2026-11-30T05:59:00.000000+00:00",
      status: "interrupted",
      current_stage: "querying sources",
      interrupted_reason: "owner_dead",
      query: "quantum error correction",
    }),
  ];
  reasons.forEach((reason, i) => {
    const id = 6 + i;
    list.push(
      baseExecution(id, {
        execution_type: "automated_sweep",
        routine_id: 2,
        start_time: `2026-02-${10 + i}T04:00:00`,
        end_time: `2026-02-${10 + i}T04:05:00`,
        status: "interrupted",
        interrupted_reason: reason,
        parameters: { query: "retraction", repositories: ["europepmc"] },
        query: "retraction",
        keywords: ["retraction"],
        selection: ["europepmc"],
      }),
    );
  });
  list.push(
    baseExecution(9, {
      execution_type: "automated_sweep",
      routine_id: 2,
      start_time: "2026-02-13T04:30:00",
      end_time: "2026-02-13T04:41:00",
      result_count: 4,
      new_result_count: 1,
      restarted_from: 6,
      request_id: "00000000-0000-4000-8001-000000000042",
      parameters: { query: "retraction", repositories: ["europepmc"] },
      query: "retraction",
      keywords: ["retraction"],
      selection: ["europepmc"],
      sources: [outcome("europepmc", "ok", 4, { recorded_at: "2026-02-13 04:40:00", sent: ["retraction"] })],
      document_ids: [7],
    }),
  );
  return list;
}

/** bioRxiv/medRxiv cannot be asked for words: resmon reads a dated range newest first, and may stop part-way. */
function preprintRun(id: number, day: number, docs: number[]): Execution {
  const start = `2026-05-${pad(day)}T05:00:00`;
  const from = `2026-05-${pad(day - 3)}`;
  const sentence = `No start date was given, so resmon asked this source for the 3 days before the run started (from ${from}).`;
  const defaultStart = { date_from: from, days: 3, before: "run", sentence };
  const inPart = day % 2 === 0;
  return baseExecution(id, {
    execution_type: "automated_sweep",
    routine_id: 4,
    start_time: start,
    end_time: `2026-05-${pad(day)}T05:01:40`,
    result_count: docs.length,
    new_result_count: Math.min(docs.length, 2),
    owner_runtime_id: OLD_RUNTIME,
    parameters: {
      query: "protein folding",
      repositories: ["biorxiv", "medrxiv", "europepmc"],
      default_starts: { biorxiv: defaultStart, medrxiv: defaultStart },
    },
    query: "protein folding",
    keywords: ["protein", "folding"],
    selection: ["biorxiv", "medrxiv", "europepmc"],
    sources: [
      outcome("biorxiv", "ok", docs.length, {
        recorded_at: `2026-05-${pad(day)} 05:00:45`,
        in_part: inPart,
        zero_reason: inPart ? "answered_in_part" : null,
        zero_detail: inPart
          ? {
              read: {
                order: "newest_first",
                records_read: 1800,
                records_total: 4100,
                read_from: `2026-05-${pad(day - 1)}`,
                read_to: start.slice(0, 10),
              },
            }
          : null,
        sent: [`details/biorxiv/${from}/${start.slice(0, 10)}`],
      }),
      outcome("medrxiv", "ok", 0, {
        recorded_at: `2026-05-${pad(day)} 05:01:30`,
        in_part: !inPart,
        zero_reason: inPart ? "genuine_empty" : "answered_in_part",
        zero_detail: inPart
          ? null
          : {
              read: {
                order: "newest_first",
                records_read: 900,
                records_total: 2300,
                read_from: `2026-05-${pad(day - 1)}`,
                read_to: start.slice(0, 10),
              },
            },
        sent: [`details/medrxiv/${from}/${start.slice(0, 10)}`],
      }),
      outcome("europepmc", "ok", 0, {
        recorded_at: `2026-05-${pad(day)} 05:01:35`,
        zero_reason: "upstream_failure",
        zero_detail: { detail: "timeout" },
        sent: ['"protein folding"'],
      }),
    ],
    document_ids: docs,
    new_document_ids: docs.slice(0, 2),
  });
}

function deliveries(store: Store): void {
  const r1 = store.routines.get(1);
  const r2 = store.routines.get(2);
  if (r1) {
    r1.deliveries = [
      {
        id: 3,
        execution_id: 1,
        target_id: 3,
        channel: "webhook",
        target_snapshot: "https://example.org/resmon-receiver",
        state: "awaiting_review",
        attempts: 0,
        next_attempt_at_utc: null,
        last_error: null,
        artifact_sha256: null,
        queued_at_utc: "2026-03-01T08:51:00.000003+00:00",
        delivered_at_utc: null,
      },
      {
        id: 2,
        execution_id: 1,
        target_id: 2,
        channel: "folder",
        target_snapshot: "/does/not/exist/reports",
        state: "failed",
        attempts: 2,
        next_attempt_at_utc: "2026-11-30T06:18:28.901596+00:00",
        last_error:
          "That folder is not a directory resmon can see. It may be on a drive that is not mounted, or in a synced folder that is not signed in.",
        artifact_sha256: null,
        queued_at_utc: "2026-03-01T08:14:00.000002+00:00",
        delivered_at_utc: null,
      },
      {
        id: 1,
        execution_id: 1,
        target_id: 1,
        channel: "email",
        target_snapshot: "",
        state: "delivered",
        attempts: 1,
        next_attempt_at_utc: null,
        last_error: null,
        artifact_sha256: "b".repeat(64),
        queued_at_utc: "2026-03-01T07:37:00.000001+00:00",
        delivered_at_utc: "2026-03-01T07:37:00.000001+00:00",
      },
    ];
  }
  if (r2) {
    r2.deliveries = [
      {
        id: 6,
        execution_id: 3,
        target_id: 7,
        channel: "webhook",
        target_snapshot: "http://127.0.0.1:9099/hook",
        state: "failed",
        attempts: 2,
        next_attempt_at_utc: "2026-11-30T06:19:28.907833+00:00",
        last_error:
          "This webhook has no shared secret saved. Set one on the destination in the routine's Delivery list, then retry: resmon signs every envelope and will not send an unsigned one.",
        artifact_sha256: null,
        queued_at_utc: "2026-03-01T10:42:00.000006+00:00",
        delivered_at_utc: null,
      },
      {
        id: 5,
        execution_id: 3,
        target_id: 5,
        channel: "folder",
        target_snapshot: "/does/not/exist/retractions",
        state: "skipped",
        attempts: 0,
        next_attempt_at_utc: null,
        last_error: null,
        artifact_sha256: null,
        queued_at_utc: "2026-03-01T10:05:00.000005+00:00",
        delivered_at_utc: null,
      },
      {
        id: 4,
        execution_id: 3,
        target_id: 4,
        channel: "feed",
        target_snapshot: "/does/not/exist/feed.xml",
        state: "delivered",
        attempts: 1,
        next_attempt_at_utc: null,
        last_error: null,
        artifact_sha256: "c".repeat(64),
        queued_at_utc: "2026-03-01T09:28:00.000004+00:00",
        delivered_at_utc: "2026-03-01T09:28:00.000004+00:00",
      },
    ];
  }
  store.next.delivery = 7;
}

function profiles(): Profile[] {
  const at = "2026-02-01 05:37:00";
  return [
    {
      id: 1,
      kind: "person",
      display_name: "Ada Lovelace",
      names: [
        { value: "Ada Lovelace", script: "Latin" },
        { value: "A. Lovelace", script: "Latin" },
      ],
      identifiers: { orcid: { value: "0000-0002-1825-0097", cited: "https://example.org/orcid-page" } },
      affiliations: ["Analytical Engine Group"],
      field_hints: ["machine learning"],
      notes: "Watched since the corpus was started.",
      created_at: at,
      updated_at: at,
    },
    {
      id: 2,
      kind: "person",
      display_name: "Alan Turing",
      names: [{ value: "Alan Turing", script: "Latin" }],
      identifiers: {},
      affiliations: ["University of Manchester"],
      field_hints: ["computation"],
      notes: null,
      created_at: "2026-02-01 06:14:00",
      updated_at: "2026-02-01 06:14:00",
    },
    {
      id: 3,
      kind: "person",
      display_name: "Grace Hopper",
      names: [{ value: "Grace Hopper", script: "Latin" }],
      identifiers: {},
      affiliations: [],
      field_hints: [],
      notes: null,
      created_at: "2026-02-01 06:51:00",
      updated_at: "2026-02-01 06:51:00",
    },
    {
      id: 4,
      kind: "group",
      display_name: "Turbulence reading group",
      names: [{ value: "Turbulence reading group", script: "Latin" }],
      identifiers: {},
      affiliations: [],
      field_hints: [],
      notes: null,
      created_at: "2026-02-01 07:28:00",
      updated_at: "2026-02-01 07:28:00",
    },
  ];
}

function matches(papers: Paper[]): ProfileMatch[] {
  const list: ProfileMatch[] = [
    {
      profile_id: 1,
      document_id: 8,
      basis: "name_only",
      matched_author: "Ada Lovelace",
      evidence: null,
      first_seen_at: "2026-02-01 06:51:00",
    },
    {
      profile_id: 1,
      document_id: 1,
      basis: "identifier",
      matched_author: "Ada Lovelace",
      evidence: "ORCID 0000-0002-1825-0097 on the source record",
      first_seen_at: "2026-02-01 05:37:00",
    },
    {
      profile_id: 1,
      document_id: 2,
      basis: "affiliation",
      matched_author: "Ada Lovelace",
      evidence: "Affiliation on the record: Analytical Engine Group",
      first_seen_at: "2026-02-01 06:14:00",
    },
    {
      profile_id: 2,
      document_id: 1,
      basis: "affiliation",
      matched_author: "Alan Turing",
      evidence: "Affiliation on the record: University of Manchester",
      first_seen_at: "2026-02-01 05:37:00",
    },
  ];
  const bases = ["identifier", "affiliation", "name_only"] as const;
  let i = 0;
  for (const p of papers) {
    if (p.id <= 8) continue;
    const authors = p.authors.split(", ");
    for (const [profileId, name] of [
      [1, "Ada Lovelace"],
      [2, "Alan Turing"],
      [3, "Grace Hopper"],
    ] as const) {
      if (!authors.includes(name)) continue;
      const basis =
        profileId === 1
          ? (bases[i++ % 3] ?? "name_only")
          : profileId === 2
            ? i++ % 2
              ? "affiliation"
              : "name_only"
            : "name_only";
      const evidence =
        basis === "identifier"
          ? "ORCID 0000-0002-1825-0097 on the source record"
          : basis === "affiliation"
            ? `Affiliation on the record: ${profileId === 1 ? "Analytical Engine Group" : "University of Manchester"}`
            : null;
      list.push({
        profile_id: profileId,
        document_id: p.id,
        basis,
        matched_author: name,
        evidence,
        first_seen_at: p.first_seen_at,
      });
    }
  }
  return list;
}

function lifecycle(papers: Paper[]): Map<number, Lifecycle> {
  const map = new Map<number, Lifecycle>();
  map.set(7, {
    checked_at: "2026-02-01 09:19:00",
    check_status: "ok",
    events: [
      {
        document_id: 7,
        kind: "retraction",
        severity: "critical",
        notice_key: "crossref:10.1000/retraction.1",
        label: "Retracted",
        notice_doi: "10.1000/retraction.1",
        notice_url: "https://example.org/notice/retraction-1",
        notice_date: "2023-01-09",
        detail: "Retracted by the publisher.",
        provider: "crossref",
        provider_source: "crossref-update-feed",
        first_seen_at: "2026-02-01 05:37:00",
      },
      {
        document_id: 7,
        kind: "expression_of_concern",
        severity: "warning",
        notice_key: "crossref:10.1000/eoc.1",
        label: "Expression of concern",
        notice_doi: "10.1000/eoc.1",
        notice_url: "https://example.org/notice/eoc-1",
        notice_date: "2022-12-20",
        detail: "The editors have concerns about the data.",
        provider: "crossref",
        provider_source: "crossref-update-feed",
        first_seen_at: "2026-02-01 05:37:00",
      },
    ],
  });
  map.set(4, {
    checked_at: null,
    check_status: null,
    events: [
      {
        document_id: 4,
        kind: "correction",
        severity: "informational",
        notice_key: "crossref:10.1000/correction.1",
        label: "Correction",
        notice_doi: "10.1000/correction.1",
        notice_url: "https://example.org/notice/correction-1",
        notice_date: "2024-09-01",
        detail: "Figure 2 axis label.",
        provider: "crossref",
        provider_source: null,
        first_seen_at: "2026-02-01 06:51:00",
      },
    ],
  });
  map.set(5, {
    checked_at: "2026-06-01 04:00:00",
    check_status: "ok",
    events: [
      {
        document_id: 5,
        kind: "published_version",
        severity: "informational",
        notice_key: "crossref:10.1000/published.5",
        label: "Published as a journal article",
        notice_doi: "10.1000/published.5",
        notice_url: "https://example.org/doi/10.1000/published.5",
        notice_date: "2025-09-12",
        detail: "Preprint → published.",
        provider: "crossref",
        provider_source: "relation:is-preprint-of",
        first_seen_at: "2026-06-01 04:00:00",
      },
      {
        document_id: 5,
        kind: "new_version",
        severity: "informational",
        notice_key: "biorxiv:10.1101/2025.03.01.000005v2",
        label: "New version posted",
        notice_doi: null,
        notice_url: "https://example.org/biorxiv/5v2",
        notice_date: "2025-04-02",
        detail: "Version 2 of the preprint.",
        provider: "biorxiv",
        provider_source: null,
        first_seen_at: "2026-06-01 04:00:00",
      },
    ],
  });
  // A sprinkle of notices across the rest of the corpus.
  for (const p of papers) {
    if (p.id > 8 && p.id % 97 === 0) {
      map.set(p.id, {
        checked_at: "2026-10-01 03:00:00",
        check_status: "ok",
        events: [
          {
            document_id: p.id,
            kind: "retraction",
            severity: "critical",
            notice_key: `crossref:10.1000/retraction.${p.id}`,
            label: "Retracted",
            notice_doi: `10.1000/retraction.${p.id}`,
            notice_url: `https://example.org/notice/retraction-${p.id}`,
            notice_date: "2026-09-01",
            detail: "Retracted at the authors' request.",
            provider: "crossref",
            provider_source: "crossref-update-feed",
            first_seen_at: "2026-10-01 03:00:00",
          },
        ],
      });
    }
  }
  return map;
}

export interface SeedSummary {
  papers: number;
  embedded: number;
  routines: number;
  executions: number;
  profiles: number;
  matches: number;
}

export function buildStore(seed: SeedName): Store {
  const size = SIZES[seed];
  const rng = createRng(seed === "demo" ? 20261130 : 424242);
  const papers = buildPapers(rng, size.papers);
  const paperById = new Map(papers.map((p) => [p.id, p]));
  // Roughly four in five papers carry a vector; papers 3 and 4 never do (named "not embedded" cases).
  const embedded = new Set<number>();
  for (const p of papers) if (p.id !== 3 && p.id !== 4 && (p.id <= 8 || rng.chance(0.8))) embedded.add(p.id);

  const store: Store = {
    papers,
    paperById,
    embedded,
    routines: new Map(routines().map((r) => [r.id, r])),
    executions: new Map(),
    profiles: new Map(profiles().map((p) => [p.id, p])),
    matches: matches(papers),
    lifecycle: lifecycle(papers),
    findings: watchdogFindings(),
    settings: defaultSettings(),
    next: { routine: 5, execution: 0, profile: 5, missedFire: 4, delivery: 0 },
    seedNow: SEED_NOW,
  };
  for (const e of fixtureExecutions()) store.executions.set(e.id, e);
  let id = 10;

  // Graph learning digest: one big run, so its coverage audit has totals beyond the 25-row lists.
  const graph = papersOnTopic(papers, 1);
  const offTopic = papers
    .filter((p) => p.id > 8 && !graph.includes(p))
    .slice(0, Math.ceil(size.graphRun / 5));
  const graphDocs = [...graph.filter((_, i) => i % 2 === 0).slice(0, size.graphRun), ...offTopic].map(
    (p) => p.id,
  );
  store.executions.set(
    id,
    baseExecution(id, {
      execution_type: "automated_sweep",
      routine_id: 3,
      start_time: "2026-06-01T06:30:00",
      end_time: "2026-06-01T06:44:10",
      result_count: graphDocs.length,
      new_result_count: graphDocs.length,
      parameters: { query: "graph neural network", repositories: ["arxiv", "semantic_scholar", "openalex"] },
      query: "graph neural network",
      keywords: ["graph", "neural", "network"],
      selection: ["arxiv", "semantic_scholar", "openalex"],
      dedup: { total: graphDocs.length, new: graphDocs.length, duplicates: 0, invalid: 0, cross_source: 0 },
      sources: [
        outcome("arxiv", "ok", Math.ceil(graphDocs.length / 2), {
          recorded_at: "2026-06-01 06:35:00",
          sent: ['all:"graph" AND all:"neural" AND all:"network"'],
        }),
        outcome("semantic_scholar", "ok", Math.floor(graphDocs.length / 2), {
          recorded_at: "2026-06-01 06:40:00",
          sent: ["query=graph neural network"],
        }),
        outcome("openalex", "ok", 0, {
          recorded_at: "2026-06-01 06:44:00",
          zero_reason: "genuine_empty",
          sent: ["search=graph neural network"],
        }),
      ],
      document_ids: graphDocs,
      new_document_ids: graphDocs,
    }),
  );
  id++;

  // Preprint watch runs: bioRxiv/medRxiv default starts, answered in part.
  const folding = papersOnTopic(papers, 2).filter(
    (p) => p.source_repository === "biorxiv" || p.source_repository === "medrxiv",
  );
  for (let day = 10; day < 10 + Math.max(3, Math.min(8, size.extraRuns / 5)); day++) {
    store.executions.set(
      id,
      preprintRun(id, day, [5, ...folding.slice((day - 10) * 3, (day - 10) * 3 + 3).map((p) => p.id)]),
    );
    id++;
  }

  // Further history: routine fires and manual sweeps, in every final status.
  const statuses = ["completed", "completed", "completed", "failed", "cancelled", "interrupted"] as const;
  for (let n = 0; n < size.extraRuns; n++) {
    const routineId = n % 3 === 0 ? null : (n % 2) + 1;
    const topicIndex = routineId === 1 ? 0 : routineId === 2 ? 7 : rng.int(0, TOPICS.length - 1);
    const topic = TOPICS[topicIndex] ?? TOPICS[0];
    const pool = papersOnTopic(papers, topicIndex);
    const docs = pool.slice(0, rng.int(0, Math.min(12, pool.length))).map((p) => p.id);
    const status = statuses[n % statuses.length] ?? "completed";
    const month = 6 + Math.floor(n / 9);
    const day = 1 + ((n * 3) % 27);
    const source = routineId === 2 ? "europepmc" : rng.pick(["arxiv", "openalex", "crossref", "pubmed"]);
    store.executions.set(
      id,
      baseExecution(id, {
        execution_type: routineId ? "automated_sweep" : rng.pick(["deep_sweep", "deep_dive"]),
        routine_id: routineId,
        start_time: `2026-${pad(month)}-${pad(day)}T0${n % 9}:00:00`,
        end_time:
          status === "interrupted"
            ? `2026-${pad(month)}-${pad(day)}T0${n % 9}:02:00`
            : `2026-${pad(month)}-${pad(day)}T0${n % 9}:09:00`,
        status,
        interrupted_reason:
          status === "interrupted"
            ? ((["owner_dead", "daemon_restart", "unknown"] as const)[n % 3] ?? "unknown")
            : null,
        cancel_reason: status === "cancelled" ? "user cancelled from the Dashboard" : null,
        error_message: status === "failed" ? "Every selected source failed to answer." : null,
        result_count: status === "completed" ? docs.length : 0,
        new_result_count: status === "completed" ? Math.floor(docs.length / 2) : 0,
        parameters: { query: topic.words.join(" "), repositories: [source] },
        query: topic.words.join(" "),
        keywords: [...topic.words],
        selection: [source],
        sources:
          status === "cancelled"
            ? [outcome(source, "cancelled", 0, { zero_reason: "cancelled" })]
            : status === "failed"
              ? [
                  outcome(source, "error", 0, {
                    zero_reason: "upstream_failure",
                    zero_detail: { detail: "connect" },
                    error_message: "connection refused",
                  }),
                ]
              : status === "completed"
                ? [
                    outcome(source, "ok", docs.length, {
                      zero_reason: docs.length ? null : "genuine_empty",
                      recorded_at: `2026-${pad(month)}-${pad(day)} 0${n % 9}:05:00`,
                      sent: [topic.words.join(" ")],
                    }),
                  ]
                : [],
        document_ids: status === "completed" ? docs : [],
        new_document_ids: status === "completed" ? docs.slice(0, Math.floor(docs.length / 2)) : [],
      }),
    );
    id++;
  }
  store.next.execution = id;
  deliveries(store);

  for (const r of store.routines.values()) {
    const runs = [...store.executions.values()].filter((e) => e.routine_id === r.id);
    const last = runs.sort((a, b) => (a.start_time < b.start_time ? 1 : -1))[0];
    r.last_executed_at = last ? last.start_time : null;
  }
  return store;
}

export function summarize(store: Store): SeedSummary {
  return {
    papers: store.papers.length,
    embedded: store.embedded.size,
    routines: store.routines.size,
    executions: store.executions.size,
    profiles: store.profiles.size,
    matches: store.matches.length,
  };
}

export type { JsonObject };
