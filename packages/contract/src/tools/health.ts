import { z } from "zod";
import { readHints, readTool } from "../define.js";
import { expectedRuntimeIdArg, identityShape } from "../schema-parts.js";

export const health = readTool({
  name: "health",
  title: "resmon health",
  description:
    "Whether resmon is running: version, schema version, scheduler and daemon state, and identity (runtime_id names this running app). To pin later calls to this app, pass identity.runtime_id as expected_runtime_id to get_execution.",
  kind: "read",
  requiresConfirmation: false,
  annotations: readHints(false),
  input: z.strictObject({ expected_runtime_id: expectedRuntimeIdArg() }),
  output: z.looseObject({
    version: z.string(),
    schema_version: z.int().nullable().optional(),
    identity: identityShape().optional(),
  }),
  routes: [{ method: "GET", path: "/api/health" }],
});
