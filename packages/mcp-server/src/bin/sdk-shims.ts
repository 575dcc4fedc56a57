/**
 * Bundled in place of `@modelcontextprotocol/server/_shims` (build.mjs): the SDK's Node shim exports
 * Ajv (about 290 KB of source, parsed at load and kept in memory) as the default JSON Schema
 * validator, which this server never builds, since serve.ts passes its own (it elicits no
 * input, so it validates no client-supplied schema). The same two exports; this validator refuses,
 * as serve.ts's does. Pays in memory held after start and in the start itself (the bench's rows
 * against a build without it, issue 42). The workspace's tests run the SDK unbundled, with its own shim.
 */
import process from "node:process";

export class DefaultJsonSchemaValidator {
  getValidator(): never {
    throw new Error("resmon-mcp bundles no JSON Schema validator: it validates no client-supplied schema.");
  }
}

export { process };
