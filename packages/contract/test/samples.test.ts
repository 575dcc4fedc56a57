import { describe, expect, it } from "vitest";
import { ANALYTICS_VIEW_PATHS, TOOL_BY_NAME, type ToolName } from "../src/index.js";
import { HAS_SAMPLES, OPENAPI, samples } from "./support/shared.js";

/**
 * The tools whose answer is resmon's own body (or its row minus progress_events), checked against
 * what the real backend answered. A schema that rejects a real answer would make the server fail
 * a call the backend served.
 */
const PASS_THROUGH: { tool: ToolName; prefix: string; shape?: (body: Record<string, unknown>) => unknown }[] =
  [
    { tool: "health", prefix: "GET__api_health." },
    {
      tool: "get_execution",
      prefix: "GET__api_executions_{exec_id}.",
      shape: ({ progress_events: _events, ...row }) => row,
    },
    { tool: "get_search_record", prefix: "GET__api_executions_{exec_id}_search-record." },
    { tool: "explain_match", prefix: "GET__api_documents_{doc_id}_why." },
    { tool: "get_paper_lifecycle", prefix: "GET__api_documents_{doc_id}_lifecycle." },
    { tool: "get_watchdog_findings", prefix: "GET__api_watchdog." },
    { tool: "run_routine", prefix: "POST__api_routines_{routine_id}_run." },
    { tool: "run_sweep", prefix: "POST__api_search_sweep." },
    { tool: "activate_routine", prefix: "POST__api_routines_{routine_id}_activate." },
    { tool: "deactivate_routine", prefix: "POST__api_routines_{routine_id}_deactivate." },
    ...Object.values(ANALYTICS_VIEW_PATHS).map((path) => ({
      tool: "get_analytics" as const,
      prefix: `GET__${path.slice(1).replaceAll("/", "_")}.`,
    })),
  ];

describe.skipIf(!HAS_SAMPLES)("output schemas accept what the real backend answered", () => {
  for (const { tool, prefix, shape } of PASS_THROUGH) {
    const ok = samples(prefix).filter((s) => s.response.status >= 200 && s.response.status < 300);
    it(`${tool} (${prefix}*: ${ok.length} answers)`, () => {
      expect(ok.length, prefix).toBeGreaterThan(0);
      for (const s of ok) {
        const body = s.response.body as Record<string, unknown>;
        const result = TOOL_BY_NAME[tool].output.safeParse(shape ? shape(body) : body);
        expect(result.success ? "ok" : result.error.message, s.file).toBe("ok");
      }
    });
  }

  it("rejects an answer missing a key the spec makes unconditional", () => {
    const [sample] = samples("POST__api_routines_{routine_id}_run.");
    const { execution_id: _id, ...withoutId } = (sample?.response.body ?? {}) as Record<string, unknown>;
    expect(TOOL_BY_NAME.run_routine.output.safeParse(withoutId).success).toBe(false);
  });
});

type BodySchema = { properties?: Record<string, unknown> };
const bodyProperties = (name: string) =>
  Object.keys((OPENAPI?.components.schemas[name] as BodySchema | undefined)?.properties ?? {});

describe.skipIf(OPENAPI === undefined)("write arguments map to fields the backend accepts", () => {
  it("run_sweep: every argument is a SweepRequest field (sources is sent as repositories)", () => {
    const fields = bodyProperties("SweepRequest");
    const rename: Record<string, string> = { sources: "repositories" };
    for (const arg of Object.keys(TOOL_BY_NAME.run_sweep.input.shape)) {
      expect(fields, arg).toContain(rename[arg] ?? arg);
    }
  });

  it("create_routine: every optional setting is a RoutineCreate field, and none is free-form", () => {
    const fields = bodyProperties("RoutineCreate");
    // name, keywords, sources, schedule and entity become name, parameters{…} and schedule_cron.
    const built = new Set(["name", "keywords", "sources", "schedule", "entity"]);
    const settings = Object.keys(TOOL_BY_NAME.create_routine.input.shape).filter((k) => !built.has(k));
    expect(settings.length).toBeGreaterThan(0);
    for (const arg of settings) expect(fields, arg).toContain(arg);
    for (const k of ["ai_settings", "storage_settings", "is_active"]) expect(settings).not.toContain(k);
    expect(fields).toEqual(expect.arrayContaining(["name", "schedule_cron", "parameters", "is_active"]));
  });

  it("create_watch_profile: list arguments are WatchProfileBody fields; the rest build names and identifiers", () => {
    const fields = bodyProperties("WatchProfileBody");
    const built: Record<string, string> = {
      name: "display_name",
      aliases: "names",
      orcid: "identifiers",
      orcid_cited: "identifiers",
    };
    for (const arg of Object.keys(TOOL_BY_NAME.create_watch_profile.input.shape)) {
      expect(fields, arg).toContain(built[arg] ?? arg);
    }
  });

  it("export_references: the formats are the ones the export route takes", () => {
    const formats = TOOL_BY_NAME.export_references.input.shape.format.options;
    expect([...formats].sort()).toEqual(["bibtex", "csv", "json", "ris"]);
    expect(bodyProperties("ReferenceExportBody")).toEqual(expect.arrayContaining(["document_ids", "format"]));
  });
});
