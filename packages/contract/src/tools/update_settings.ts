import { z } from "zod";
import { writeHints, writeTool } from "../define.js";
import { SETTINGS_GROUPS, SETTINGS_KEYS_WRITABLE } from "../settings.js";

const settingsRoutes = SETTINGS_GROUPS.flatMap((group) => [
  { method: "GET", path: `/api/settings/${group}` } as const,
  { method: "PUT", path: `/api/settings/${group}` } as const,
]);

export const update_settings = writeTool({
  name: "update_settings",
  title: "Update settings",
  description:
    'Change resmon settings in one group. Only 20 keys are writable (which model, effort, ceilings, retention, notifications); keys that choose where resmon sends things, what it runs, where it writes, what it is told, or whether an AI summary is labelled are refused by name, as is any credential-shaped key (keys live in the app\'s keychain). Values are strings; booleans as "true"/"false". Answers a before/after diff of the real state.',
  kind: "write",
  requiresConfirmation: true,
  // Overwrites nothing unrecoverable: the answer reports each key's previous value.
  annotations: writeHints(true, false),
  input: z.strictObject({
    group: z.enum(SETTINGS_GROUPS).describe("Settings group."),
    settings: z
      .record(z.string(), z.string())
      .refine((s) => Object.keys(s).length > 0, "Name at least one setting.")
      .meta({
        minProperties: 1,
        description: `Key to new value (a string), at least one. Writable keys: ${SETTINGS_KEYS_WRITABLE.join(", ")}.`,
      }),
  }),
  output: z.looseObject({
    group: z.enum(SETTINGS_GROUPS),
    changed: z.record(z.string(), z.looseObject({ from: z.unknown(), to: z.unknown() })),
    requested: z.record(z.string(), z.unknown()),
    unchanged_key_count: z.int(),
  }),
  routes: settingsRoutes as [(typeof settingsRoutes)[number], ...(typeof settingsRoutes)[number][]],
});
