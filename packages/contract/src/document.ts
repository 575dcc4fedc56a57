import { ERROR_CODES, VERSION_GAP_CODE } from "./errors.js";
import { EXCLUDED_ROUTES } from "./excluded.js";
import { toToolJsonSchema } from "./json-schema.js";
import { PROGRESS_MAX_PER_SECOND, PROGRESS_TOOLS } from "./progress.js";
import { PROMPTS } from "./prompts.js";
import {
  ARGUMENT_NEEDS,
  FEATURE_KEYS,
  FEATURE_SINCE,
  LINES_OF_RESMON,
  NOT_IN_THIS_RESMON,
  newerRoutes,
  OLDEST_RESMON,
  SETTING_SINCE,
  toolNeeds,
} from "./resmon-versions.js";
import { SCAN_EVIDENCE_RESOURCES, SCAN_RESOURCE_SCHEME, SCAN_RESOURCE_TEMPLATE } from "./resources.js";
import { ROUTES } from "./routes.js";
import { DEFAULT_LIMIT, MAX_LIMIT } from "./schema-parts.js";
import {
  APP_SETTINGS_KEYS,
  CREDENTIAL_WORDS,
  SETTINGS_GROUPS,
  SETTINGS_KEYS_WITHHELD,
  SETTINGS_KEYS_WRITABLE,
  UNREACHABLE_SETTINGS,
} from "./settings.js";
import { READ_TOOLS, TOOLS, WRITE_TOOLS } from "./table.js";
import { CONTRACT_VERSION, SERVER_NAME } from "./version.js";

/**
 * The whole contract as plain JSON, for consumers that are not TypeScript (resmon's Python assistant).
 * Key order is fixed by construction, so the generated file is stable.
 */
export function contractDocument() {
  return {
    contract_version: CONTRACT_VERSION,
    server_name: SERVER_NAME,
    limits: { default_limit: DEFAULT_LIMIT, max_limit: MAX_LIMIT },
    tools: TOOLS.map((t) => ({
      name: t.name,
      title: t.title,
      kind: t.kind,
      requires_confirmation: t.requiresConfirmation,
      annotations: t.annotations,
      description: t.description,
      input_schema: toToolJsonSchema(t.input, "input"),
      output_schema: toToolJsonSchema(t.output, "output"),
      routes: t.routes.map((r) => ({ method: r.method, path: r.path })),
      needs_resmon: toolNeeds(t),
    })),
    read_tools: READ_TOOLS,
    write_tools: WRITE_TOOLS,
    routes: ROUTES.map((r) => ({ method: r.method, path: r.path })),
    settings: {
      groups: SETTINGS_GROUPS,
      app_keys: APP_SETTINGS_KEYS,
      writable: SETTINGS_KEYS_WRITABLE,
      withheld: SETTINGS_KEYS_WITHHELD,
      credential_words: CREDENTIAL_WORDS,
      unreachable: UNREACHABLE_SETTINGS,
    },
    error_codes: ERROR_CODES,
    resmon: {
      lines: LINES_OF_RESMON,
      oldest: OLDEST_RESMON,
      route_since: Object.fromEntries(newerRoutes()),
      feature_since: FEATURE_SINCE,
      setting_since: SETTING_SINCE,
      feature_keys: FEATURE_KEYS,
      argument_needs: ARGUMENT_NEEDS,
      version_gap: { error: VERSION_GAP_CODE, reason: NOT_IN_THIS_RESMON },
    },
    excluded_routes: EXCLUDED_ROUTES,
    // 1.4: the surface beyond tools. A prompt is one user message: its lines joined by "\n", each
    // `{argument}` filled in, a line with `when`/`unless` kept only when that argument is (not) given.
    prompts: PROMPTS.map((p) => ({
      name: p.name,
      title: p.title,
      description: p.description,
      arguments: p.arguments,
      message: { role: "user", lines: p.lines },
    })),
    resources: {
      scheme: SCAN_RESOURCE_SCHEME,
      uri_template: SCAN_RESOURCE_TEMPLATE,
      files: SCAN_EVIDENCE_RESOURCES,
    },
    progress: { tools: PROGRESS_TOOLS, max_per_second: PROGRESS_MAX_PER_SECOND },
  };
}

export type ContractDocument = ReturnType<typeof contractDocument>;
