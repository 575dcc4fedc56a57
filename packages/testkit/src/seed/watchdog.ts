import type { WatchdogFinding } from "../model.js";

/** Findings in all four severities, one of them muted. */
export function watchdogFindings(): WatchdogFinding[] {
  return [
    {
      key: "source_errors:semantic_scholar",
      severity: "broken",
      kind: "source_errors",
      scope: { type: "source", id: "semantic_scholar" },
      title: "Semantic Scholar has failed on its last 3 runs",
      detail:
        "Each of the last 3 runs that asked Semantic Scholar recorded a failure; the most recent: the source answered HTTP 503.",
      what_to_do:
        "Check Semantic Scholar's status page, and add an API key in Settings → Sources if you have one: unauthenticated requests are throttled first.",
      evidence: {
        consecutive_failures: 3,
        last_error: "HTTP 503 from the upstream",
        last_success_at: "2026-02-01T06:00:00",
      },
      muted: false,
    },
    {
      key: "routine_flatline:2",
      severity: "unusual",
      kind: "routine_flatline",
      scope: { type: "routine", id: 2 },
      title: "Retraction watch has found nothing new on its last 5 runs",
      detail:
        "Before that it found new papers on 4 of 6 runs. The field may simply be quiet; this is a question, not a failure.",
      what_to_do:
        "Open the routine's coverage audit, and consider whether its keywords still match what you want to follow.",
      evidence: {
        runs_without_new: 5,
        baseline_runs: 6,
        baseline_productive: 4,
        last_new_result_at: "2026-02-13T04:30:00",
        last_skipped_due_at_utc: "2026-03-01T08:51:00.000003+00:00",
      },
      muted: false,
    },
    {
      key: "source_in_part:biorxiv",
      severity: "advice",
      kind: "source_in_part",
      scope: { type: "source", id: "biorxiv" },
      title: "bioRxiv was answered in part on its last 3 runs",
      detail:
        "resmon read the newest records of each window and stopped at its time budget; older preprints in the window were not read.",
      what_to_do: "Run this watch more often, or narrow its window, so each run can read its whole range.",
      evidence: { runs_in_part: 3, last_success_at: "2026-05-16T05:00:00" },
      muted: false,
    },
    {
      key: "source_withdrawn:ieee",
      severity: "withdrawn",
      kind: "source_withdrawn",
      scope: { type: "source", id: "ieee" },
      title: "IEEE Xplore is no longer asked",
      detail: "resmon no longer queries IEEE Xplore, by decision; a recent run still named it.",
      what_to_do: "Remove IEEE Xplore from the routines that still select it.",
      evidence: { last_named_at: "2026-02-01T06:00:00", last_success_at: null },
      muted: false,
    },
    {
      key: "cadence:1",
      severity: "advice",
      kind: "cadence_lag",
      scope: { type: "routine", id: 1 },
      title: "Turbulence watch could run less often",
      detail: "arXiv's median discovery lag is well under this routine's polling interval.",
      what_to_do: "Nothing needs doing; this is advice only.",
      evidence: { median_lag_days: 1.5, interval_days: 7 },
      muted: true,
    },
  ];
}
