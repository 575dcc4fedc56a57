import { requireFeature, requireKnownSources } from "../backend/this-resmon.js";
import type { Handler } from "../context.js";
import { ToolError } from "../errors.js";
import { answerOf } from "../shape/answer.js";
import { routineRecord } from "../shape/routine.js";
import { asRecord } from "../shape/values.js";

const CREATED_INACTIVE =
  "Created inactive: nothing is scheduled until activate_routine (or the app) turns it on. The record above was read back from resmon.";

export const create_routine: Handler<"create_routine"> = async (args, { backend }) => {
  await requireKnownSources(backend, "sources", args.sources);
  const parameters: {
    query: string;
    repositories: string[];
    entity?: { profile_id: number; mode: string };
  } = { query: args.keywords.join(" "), repositories: args.sources };
  // entity goes to resmon unexamined: its validator is the one the app's own editor uses.
  if (args.entity !== undefined) parameters.entity = args.entity;
  const body: {
    name: string;
    schedule_cron: string;
    parameters: typeof parameters;
    is_active: boolean;
    intent?: string;
    ai_enabled?: boolean;
    email_enabled?: boolean;
    email_ai_summary_enabled?: boolean;
    notify_on_complete?: boolean;
  } = { name: args.name, schedule_cron: args.schedule, parameters, is_active: false };
  // Omitted when not given, never sent empty, never filled in from the keywords.
  if (args.intent !== undefined && args.intent.trim() !== "") {
    await requireFeature(backend, "routine_intent", "routine intent (what coverage is measured against)");
    body.intent = args.intent;
  }
  for (const flag of [
    "ai_enabled",
    "email_enabled",
    "email_ai_summary_enabled",
    "notify_on_complete",
  ] as const) {
    const value = args[flag];
    if (value !== undefined) body[flag] = value;
  }
  const created = asRecord(await backend.call((c) => c.POST("/api/routines", { body })));
  const id = typeof created.id === "number" ? created.id : undefined;
  const warning =
    typeof created.entity_warning === "string" && created.entity_warning ? created.entity_warning : undefined;
  const withWarning = (answer: Record<string, unknown>, note: string): Record<string, unknown> =>
    warning === undefined
      ? { ...answer, detail: { note } }
      : { ...answer, entity_warning: warning, detail: { note, entity_warning: warning } };
  if (id === undefined) {
    throw new ToolError(
      "upstream_error",
      "resmon accepted the routine but did not say its id, so it cannot be read back; look for it with list_routines before creating it again.",
      warning === undefined ? {} : { entity_warning: warning },
    );
  }
  try {
    const row = await backend.call((c) =>
      c.GET("/api/routines/{routine_id}", { params: { path: { routine_id: id } } }),
    );
    return answerOf(
      "create_routine",
      withWarning(
        { routine: routineRecord(row, (await backend.resmon()).has("missed_fires")), read_back: true },
        CREATED_INACTIVE,
      ),
    );
  } catch (err) {
    // The routine exists; failing the call now would invite a duplicate. Say what is known, no more.
    const why = err instanceof ToolError ? err.message : "the read-back failed";
    return answerOf(
      "create_routine",
      withWarning(
        {
          routine: { id, name: typeof created.name === "string" ? created.name : body.name },
          read_back: false,
          read_back_error: why,
        },
        `Created as routine ${id} (sent inactive), but reading it back failed, so its stored record is not shown: ${why} get_routine ${id} shows it.`,
      ),
    );
  }
};
