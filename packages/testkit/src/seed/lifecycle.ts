import type { Lifecycle, Paper } from "../model.js";

/** Retraction, correction and version notices: named ones on papers 4, 5 and 7, and a sprinkle. */
export function lifecycle(papers: Paper[]): Map<number, Lifecycle> {
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
