import { z } from "zod";
import { writeTool } from "../define.js";
import { sourcesArg } from "../schema-parts.js";

export const ENTITY_MODES = ["new_papers", "retractions"] as const;

export const create_routine = writeTool({
  name: "create_routine",
  title: "Create routine",
  description:
    "Save a search, created INACTIVE (activate_routine schedules it). intent is what its coverage is measured against (omit, not repeat keywords). Repeat an entity_warning.",
  idempotent: false,
  openWorld: false,
  // Only fields POST /api/routines declares. Its free-form ai_settings/storage_settings objects are
  // left out: they could name providers or paths that update_settings withholds.
  input: () =>
    z.strictObject({
      name: z.string().min(1),
      keywords: z.array(z.string().min(1)).min(1),
      sources: sourcesArg().min(1),
      schedule: z.string().min(1).describe("Cron, e.g. '0 7 * * 1'."),
      intent: z.string().min(1).optional(),
      entity: z
        .strictObject({
          profile_id: z.int().min(1),
          mode: z.enum(ENTITY_MODES),
        })
        .optional()
        .describe("Follow a watch profile."),
      ai_enabled: z.boolean().optional(),
      notify_on_complete: z.boolean().optional(),
      email_enabled: z.boolean().optional(),
      email_ai_summary_enabled: z.boolean().optional(),
    }),
  output: () =>
    z.looseObject({
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
    // Read (once per runtime id) to refuse an unknown source slug by name.
    { method: "GET", path: "/api/repositories/catalog" },
  ],
  example: { name: "bench", keywords: ["model"], sources: ["arxiv"], schedule: "0 7 * * 1" },
  budget: 260,
});
