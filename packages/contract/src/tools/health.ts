import { z } from "zod";
import { readTool } from "../define.js";
import { expectedRuntimeIdArg, identityShape } from "../schema-parts.js";

export const health = readTool({
  name: "health",
  title: "resmon health",
  description:
    "Is resmon up: version, scheduler, daemon, identity. identity.runtime_id as expected_runtime_id binds a call to this app.",
  input: () => z.strictObject({ expected_runtime_id: expectedRuntimeIdArg() }),
  output: () =>
    z.looseObject({
      version: z.string(),
      schema_version: z.int().nullable().optional(),
      identity: identityShape().optional(),
    }),
  routes: [{ method: "GET", path: "/api/health" }],
  example: {},
  budget: 200,
});
