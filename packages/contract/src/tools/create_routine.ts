import { z } from "zod";
import { writeHints, writeTool } from "../define.js";
import { sourcesArg } from "../schema-parts.js";

export const ENTITY_MODES = ["new_papers", "retractions"] as const;

export const create_routine = writeTool({
  name: "create_routine",
  title: "Create a routine",
  description:
    "Save a scheduled search. It is created INACTIVE: nothing is scheduled until activate_routine. Returns the stored routine (is_active false/0). intent is the sentence its coverage audit measures results against; leave it out rather than repeat the keywords. entity makes it follow a watch profile; entity_warning means none of the sources can be asked about an author, so it will find nothing - tell the user.",
  kind: "write",
  requiresConfirmation: true,
  annotations: writeHints(false, false),
  // Only fields POST /api/routines declares. Its free-form ai_settings/storage_settings objects are
  // left out: they could name providers or paths that update_settings withholds.
  input: z.strictObject({
    name: z.string().min(1).describe("Routine name."),
    keywords: z
      .array(z.string().min(1))
      .min(1)
      .describe("Search terms, sent together as the routine's query."),
    sources: sourcesArg("Sources to ask").min(1),
    schedule: z.string().min(1).describe("Cron expression, e.g. '0 7 * * 1' (Mondays 07:00)."),
    intent: z.string().min(1).optional().describe("What the routine is for, in a sentence."),
    entity: z
      .strictObject({
        profile_id: z.int().min(1).describe("Watch profile id."),
        mode: z.enum(ENTITY_MODES).describe("new_papers or retractions."),
      })
      .optional()
      .describe("Follow a watch profile's person instead of words."),
    ai_enabled: z.boolean().optional().describe("Summarize each run's results with AI."),
    notify_on_complete: z.boolean().optional().describe("Desktop notification when a run completes."),
    email_enabled: z.boolean().optional().describe("Email each run's report."),
    email_ai_summary_enabled: z.boolean().optional().describe("Include the AI summary in the email."),
  }),
  output: z.looseObject({
    routine: z.looseObject({
      id: z.int(),
      name: z.string(),
      // Absent only when the read-back failed (read_back: false): then nothing is claimed about it.
      is_active: z.union([z.boolean(), z.int()]).optional(),
    }),
    read_back: z.boolean(),
    entity_warning: z.string().optional(),
    detail: z.looseObject({}).optional(),
  }),
  // The created routine is read back so is_active is the stored fact, not an assertion.
  routes: [
    { method: "POST", path: "/api/routines" },
    { method: "GET", path: "/api/routines/{routine_id}" },
  ],
});
