import type { FakeReply, SeenRequest } from "./fake-backend.js";
import { sample } from "./samples.js";

/** Which captured sample answers each route (the real backend's own bodies). */
const DEFAULT_SAMPLE: Record<string, string> = {
  "GET /api/health": "GET__api_health",
  "POST /api/explorer/search": "POST__api_explorer_search.keyword",
  "GET /api/documents/{document_id}/similar": "GET__api_documents_{document_id}_similar",
  "GET /api/repositories/catalog": "GET__api_repositories_catalog",
  "GET /api/credentials": "GET__api_credentials",
  "GET /api/routines": "GET__api_routines",
  "GET /api/routines/{routine_id}": "GET__api_routines_{routine_id}",
  "GET /api/routines/{routine_id}/deliveries": "GET__api_routines_{routine_id}_deliveries",
  "GET /api/routines/{routine_id}/coverage": "GET__api_routines_{routine_id}_coverage",
  "GET /api/executions": "GET__api_executions.no-limit",
  "GET /api/executions/{exec_id}": "GET__api_executions_{exec_id}.1-completed",
  "GET /api/executions/{exec_id}/search-record": "GET__api_executions_{exec_id}_search-record",
  "GET /api/documents/{doc_id}/why": "GET__api_documents_{doc_id}_why",
  "GET /api/documents/{doc_id}/lifecycle": "GET__api_documents_{doc_id}_lifecycle",
  "GET /api/analytics/overview": "GET__api_analytics_overview",
  "GET /api/analytics/publication-volume": "GET__api_analytics_publication-volume",
  "GET /api/analytics/source-contribution": "GET__api_analytics_source-contribution",
  "GET /api/analytics/keyword-contribution": "GET__api_analytics_keyword-contribution",
  "GET /api/analytics/routine-health": "GET__api_analytics_routine-health",
  "GET /api/analytics/discovery-lag": "GET__api_analytics_discovery-lag",
  "GET /api/watchdog": "GET__api_watchdog",
  "GET /api/profiles": "GET__api_profiles",
  "GET /api/profiles/{profile_id}": "GET__api_profiles_{profile_id}",
  "GET /api/profiles/{profile_id}/matches": "GET__api_profiles_{profile_id}_matches",
  "POST /api/search/sweep": "POST__api_search_sweep",
  "POST /api/routines": "POST__api_routines",
  "POST /api/profiles": "POST__api_profiles",
  "POST /api/routines/{routine_id}/run": "POST__api_routines_{routine_id}_run",
  "POST /api/routines/{routine_id}/activate": "POST__api_routines_{routine_id}_activate",
  "POST /api/routines/{routine_id}/deactivate": "POST__api_routines_{routine_id}_deactivate",
  "GET /api/settings/storage-after": "GET__api_settings_storage.after-put",
  "PUT /api/settings/storage": "PUT__api_settings_storage",
  "PUT /api/settings/notifications": "PUT__api_settings_storage",
};

function byFormat(prefix: string, format: unknown, ids: boolean): string {
  if (format === "json") return `${prefix}.${ids ? "json" : "json-no-ids"}`;
  return `${prefix}.${String(format ?? "bibtex")}`;
}

/** Answers every route of the contract from the captured samples; `overrides` pick another sample per route. */
export function sampleResponder(overrides: Record<string, string> = {}): (req: SeenRequest) => FakeReply {
  return (req) => {
    const key = `${req.method} ${req.path}`;
    let name = overrides[key];
    if (!name && key === "GET /api/executions/{exec_id}/references") {
      name = byFormat(
        "GET__api_executions_{exec_id}_references",
        req.query.format,
        req.query.include_ids === true,
      );
    }
    if (!name && key === "POST /api/export/references") {
      const format = (req.body as { format?: unknown }).format;
      name =
        format === "json"
          ? "POST__api_export_references.json"
          : `POST__api_export_references.${String(format)}`;
    }
    if (!name && req.method === "GET" && req.path.startsWith("/api/settings/") && !DEFAULT_SAMPLE[key]) {
      name = `GET__api_settings_${req.path.slice("/api/settings/".length)}`;
    }
    name ??= DEFAULT_SAMPLE[key];
    if (!name) return { status: 599, body: { detail: `no sample for ${key}` } };
    const s = sample(name);
    return { status: s.response.status, body: s.response.body };
  };
}
