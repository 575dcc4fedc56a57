import type { Delivery, DeliveryTarget, Routine, Store } from "../model.js";

export function routines(): Routine[] {
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
    {
      // Stored as resmon 2.3's own fixture stores its routines: `keywords` and `sources`, keys the
      // dispatcher does not read (it reads `query` and `repositories`), so a run searches no source.
      id: 5,
      name: "Retraction watch (older row)",
      schedule_cron: "0 9 * * *",
      parameters: { keywords: "retraction", sources: ["europepmc"] },
      is_active: false,
      email_enabled: false,
      ai_enabled: false,
      notify_on_complete: false,
      ai_settings: null,
      intent: null,
      created_at: "2026-02-01 06:20:00",
      updated_at: "2026-02-01 06:20:00",
      missed: [],
      targets: [],
      ...common,
    },
  ];
}

/** Past deliveries of routines 1 and 2, in every state. */
export function deliveries(store: Store): void {
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
