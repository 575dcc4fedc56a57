/**
 * What the real resmon OpenAPI declares for each of the 44 method+path pairs the tools use:
 * the query parameters, and the top-level body fields (with the required ones). Written from
 * ../shared/resmon/openapi.json; a test checks it against that file when it is present.
 * The testkit refuses anything not declared here, where resmon would silently ignore it.
 */
export interface DeclaredRoute {
  readonly method: "GET" | "POST" | "PUT";
  readonly path: string;
  readonly query: readonly string[];
  readonly body: { readonly fields: readonly string[]; readonly required: readonly string[] } | null;
}

export const DECLARED_ROUTES: readonly DeclaredRoute[] = [
  { method: "GET", path: "/api/health", query: ["expected_runtime_id"], body: null },
  {
    method: "POST",
    path: "/api/explorer/search",
    query: [],
    body: {
      fields: [
        "authors",
        "categories",
        "cursor",
        "date_from",
        "date_to",
        "limit",
        "query",
        "sort",
        "sources",
      ],
      required: [],
    },
  },
  { method: "GET", path: "/api/documents/{document_id}/similar", query: ["k"], body: null },
  { method: "GET", path: "/api/repositories/catalog", query: [], body: null },
  { method: "GET", path: "/api/credentials", query: [], body: null },
  { method: "GET", path: "/api/routines", query: [], body: null },
  { method: "GET", path: "/api/routines/{routine_id}", query: [], body: null },
  { method: "GET", path: "/api/routines/{routine_id}/deliveries", query: ["limit"], body: null },
  { method: "GET", path: "/api/routines/{routine_id}/coverage", query: [], body: null },
  { method: "GET", path: "/api/executions", query: ["limit", "offset", "type"], body: null },
  { method: "GET", path: "/api/executions/{exec_id}", query: ["expected_runtime_id"], body: null },
  {
    method: "GET",
    path: "/api/executions/{exec_id}/references",
    query: ["format", "only_new", "include_ids"],
    body: null,
  },
  { method: "GET", path: "/api/executions/{exec_id}/search-record", query: ["format"], body: null },
  { method: "GET", path: "/api/documents/{doc_id}/why", query: ["execution_id"], body: null },
  { method: "GET", path: "/api/documents/{doc_id}/lifecycle", query: [], body: null },
  { method: "GET", path: "/api/analytics/overview", query: [], body: null },
  { method: "GET", path: "/api/analytics/publication-volume", query: ["group_by", "months"], body: null },
  { method: "GET", path: "/api/analytics/source-contribution", query: [], body: null },
  { method: "GET", path: "/api/analytics/keyword-contribution", query: ["execution_id"], body: null },
  { method: "GET", path: "/api/analytics/routine-health", query: [], body: null },
  { method: "GET", path: "/api/analytics/discovery-lag", query: [], body: null },
  { method: "GET", path: "/api/watchdog", query: [], body: null },
  {
    method: "POST",
    path: "/api/export/references",
    query: [],
    body: { fields: ["document_ids", "execution_ids", "format"], required: [] },
  },
  { method: "GET", path: "/api/profiles", query: ["kind"], body: null },
  { method: "GET", path: "/api/profiles/{profile_id}", query: [], body: null },
  { method: "GET", path: "/api/profiles/{profile_id}/matches", query: ["limit", "offset"], body: null },
  {
    method: "POST",
    path: "/api/search/sweep",
    query: [],
    body: {
      fields: [
        "ai_enabled",
        "ai_settings",
        "date_from",
        "date_to",
        "ephemeral_credentials",
        "keywords",
        "max_results",
        "query",
        "repositories",
        "request_id",
        "saved_configuration_id",
      ],
      required: ["repositories", "query"],
    },
  },
  {
    method: "POST",
    path: "/api/routines",
    query: [],
    body: {
      fields: [
        "ai_enabled",
        "ai_settings",
        "email_ai_summary_enabled",
        "email_enabled",
        "intent",
        "is_active",
        "name",
        "notify_on_complete",
        "parameters",
        "schedule_cron",
        "storage_settings",
      ],
      required: ["name", "schedule_cron", "parameters"],
    },
  },
  {
    method: "POST",
    path: "/api/profiles",
    query: [],
    body: {
      fields: ["affiliations", "display_name", "field_hints", "identifiers", "kind", "names", "notes"],
      required: [],
    },
  },
  { method: "POST", path: "/api/routines/{routine_id}/run", query: [], body: null },
  { method: "POST", path: "/api/routines/{routine_id}/activate", query: [], body: null },
  { method: "POST", path: "/api/routines/{routine_id}/deactivate", query: [], body: null },
  { method: "GET", path: "/api/settings/ai", query: [], body: null },
  {
    method: "PUT",
    path: "/api/settings/ai",
    query: [],
    body: { fields: ["settings"], required: ["settings"] },
  },
  { method: "GET", path: "/api/settings/assistant", query: [], body: null },
  {
    method: "PUT",
    path: "/api/settings/assistant",
    query: [],
    body: { fields: ["settings"], required: ["settings"] },
  },
  { method: "GET", path: "/api/settings/email", query: [], body: null },
  {
    method: "PUT",
    path: "/api/settings/email",
    query: [],
    body: { fields: ["settings"], required: ["settings"] },
  },
  { method: "GET", path: "/api/settings/embeddings", query: [], body: null },
  {
    method: "PUT",
    path: "/api/settings/embeddings",
    query: [],
    body: { fields: ["settings"], required: ["settings"] },
  },
  { method: "GET", path: "/api/settings/storage", query: [], body: null },
  {
    method: "PUT",
    path: "/api/settings/storage",
    query: [],
    body: { fields: ["settings"], required: ["settings"] },
  },
  { method: "GET", path: "/api/settings/notifications", query: [], body: null },
  {
    method: "PUT",
    path: "/api/settings/notifications",
    query: [],
    body: { fields: ["settings"], required: ["settings"] },
  },
];
