import { z } from "zod";
import { writeTool } from "../define.js";
import { SETTINGS_GROUPS, SETTINGS_KEYS_WRITABLE } from "../settings.js";

const settingsRoutes = SETTINGS_GROUPS.flatMap((group) => [
  { method: "GET", path: `/api/settings/${group}` } as const,
  { method: "PUT", path: `/api/settings/${group}` } as const,
]);

export const update_settings = writeTool({
  name: "update_settings",
  title: "Update settings",
  description: `Change a group's settings. Only ${SETTINGS_KEYS_WRITABLE.length} keys are writable (model, effort, ceilings, retention, notifications); others and credential-shaped keys are refused by name. Booleans as "true"/"false".`,
  // Overwrites nothing unrecoverable: the answer reports each key's previous value.
  idempotent: true,
  openWorld: false,
  input: () =>
    z.strictObject({
      group: z.enum(SETTINGS_GROUPS),
      settings: z
        .record(z.string(), z.string())
        .refine((s) => Object.keys(s).length > 0, "Name at least one setting.")
        .meta({ minProperties: 1 }),
    }),
  output: () =>
    z.looseObject({
      group: z.enum(SETTINGS_GROUPS),
      changed: z.record(z.string(), z.looseObject({ from: z.unknown(), to: z.unknown() })),
      requested: z.record(z.string(), z.unknown()),
      unchanged_key_count: z.int(),
    }),
  routes: settingsRoutes as [(typeof settingsRoutes)[number], ...(typeof settingsRoutes)[number][]],
  example: { group: "ai", settings: { ai_temperature: "0.2" } },
  budget: 60,
});
