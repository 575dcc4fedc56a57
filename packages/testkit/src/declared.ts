/**
 * What the real resmon OpenAPI declares for each of the 44 method+path pairs the tools use:
 * the query parameters, and the top-level body fields (required ones, and each field's type).
 * Written from ../shared/resmon/openapi.json; a test checks it against that file when present.
 * The testkit refuses anything not declared here, where resmon would silently ignore it.
 */
export interface DeclaredRoute {
  readonly method: "GET" | "POST" | "PUT";
  readonly path: string;
  readonly query: readonly string[];
  readonly body: {
    readonly fields: readonly string[];
    readonly required: readonly string[];
    /** JSON type per field: "string", "integer", "boolean", "object", "array<item>"; a trailing "?" = nullable. */
    readonly types: Readonly<Record<string, string>>;
  } | null;
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
      types: {
        authors: "array<string>",
        categories: "array<string>",
        cursor: "string?",
        date_from: "string?",
        date_to: "string?",
        limit: "integer",
        query: "string?",
        sort: "string",
        sources: "array<string>",
      },
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
    body: {
      fields: ["document_ids", "execution_ids", "format"],
      required: [],
      types: { document_ids: "array<integer>", execution_ids: "array<integer>?", format: "string" },
    },
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
      types: {
        ai_enabled: "boolean",
        ai_settings: "object?",
        date_from: "string?",
        date_to: "string?",
        ephemeral_credentials: "object?",
        keywords: "array<string>?",
        max_results: "integer",
        query: "string",
        repositories: "array<string>",
        request_id: "string?",
        saved_configuration_id: "integer?",
      },
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
      types: {
        ai_enabled: "boolean",
        ai_settings: "object?",
        email_ai_summary_enabled: "boolean",
        email_enabled: "boolean",
        intent: "string?",
        is_active: "boolean",
        name: "string",
        notify_on_complete: "boolean",
        parameters: "object",
        schedule_cron: "string",
        storage_settings: "object?",
      },
    },
  },
  {
    method: "POST",
    path: "/api/profiles",
    query: [],
    body: {
      fields: ["affiliations", "display_name", "field_hints", "identifiers", "kind", "names", "notes"],
      required: [],
      types: {
        affiliations: "array<string>",
        display_name: "string",
        field_hints: "array<string>",
        identifiers: "object",
        kind: "string",
        names: "array<any>",
        notes: "string?",
      },
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
    body: { fields: ["settings"], required: ["settings"], types: { settings: "object" } },
  },
  { method: "GET", path: "/api/settings/assistant", query: [], body: null },
  {
    method: "PUT",
    path: "/api/settings/assistant",
    query: [],
    body: { fields: ["settings"], required: ["settings"], types: { settings: "object" } },
  },
  { method: "GET", path: "/api/settings/email", query: [], body: null },
  {
    method: "PUT",
    path: "/api/settings/email",
    query: [],
    body: { fields: ["settings"], required: ["settings"], types: { settings: "object" } },
  },
  { method: "GET", path: "/api/settings/embeddings", query: [], body: null },
  {
    method: "PUT",
    path: "/api/settings/embeddings",
    query: [],
    body: { fields: ["settings"], required: ["settings"], types: { settings: "object" } },
  },
  { method: "GET", path: "/api/settings/storage", query: [], body: null },
  {
    method: "PUT",
    path: "/api/settings/storage",
    query: [],
    body: { fields: ["settings"], required: ["settings"], types: { settings: "object" } },
  },
  { method: "GET", path: "/api/settings/notifications", query: [], body: null },
  {
    method: "PUT",
    path: "/api/settings/notifications",
    query: [],
    body: { fields: ["settings"], required: ["settings"], types: { settings: "object" } },
  },
];
