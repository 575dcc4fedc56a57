/**
 * The MCP Registry's server.json format, as a zod schema, for `packages/mcp-server/server.json`.
 *
 * Source: the registry's published schema, version 2025-12-11
 * (https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json, generated in the
 * modelcontextprotocol/registry repository from its openapi.yaml). Not vendored: this restates, for
 * the parts a stdio npm package uses, each of its constraints (required fields, patterns, lengths,
 * enums, "version is not a range or `latest`"). It is stricter in one way: an unknown key is an
 * error here (the published schema allows extra keys), so a misspelt field cannot pass unnoticed.
 * When SERVER_SCHEMA_URL in release-meta.ts moves to a newer schema, recheck this against it.
 */
import { fullFormats } from "ajv-formats/dist/formats.js";
import { z } from "zod";

// ajv-formats 3 defines `uri` as a function; a later version that changed that must fail loudly.
if (typeof fullFormats.uri !== "function") throw new Error("ajv-formats: `uri` is no longer a function");
const isUri = fullFormats.uri as (s: string) => boolean;

/** The registry refuses version ranges (`^1.2.3`, `~1.2.3`, `>=1.2.3`, `1.x`, `1.*`) and `latest`. */
const RANGE = /^[\^~<>=]|[xX*](\.|$)|\s-\s|\|\|/;
const exactVersion = z
  .string()
  .min(1)
  .max(255)
  .refine((v) => v !== "latest" && !RANGE.test(v), "must be one exact version, not a range or `latest`");

/**
 * An https URL on a domain that is also an RFC 3986 URI by the very check JSON Schema validators
 * use for the published schema's `format: uri` (ajv-formats'). zod's bare `z.url()` is looser: a
 * differential run against the published schema found it taking "A:" and "https://example.com/a b".
 */
const httpsUrl = () =>
  z
    .url({ protocol: /^https$/, hostname: z.regexes.domain })
    .refine((s) => isUri(s), "must be an RFC 3986 URI (format: uri)");

const input = {
  description: z.string().optional(),
  isRequired: z.boolean().optional(),
  format: z.enum(["string", "number", "boolean", "filepath"]).optional(),
  value: z.string().optional(),
  isSecret: z.boolean().optional(),
  default: z.string().optional(),
  placeholder: z.string().optional(),
  choices: z.array(z.string()).optional(),
};

const keyValueInput = z.strictObject({ name: z.string().min(1), ...input });

const stdioTransport = z.strictObject({ type: z.literal("stdio") });

const packageEntry = z.strictObject({
  registryType: z.string().min(1),
  registryBaseUrl: httpsUrl().optional(),
  identifier: z.string().min(1),
  version: exactVersion.optional(),
  fileSha256: z
    .string()
    .regex(/^[a-f0-9]{64}$/)
    .optional(),
  runtimeHint: z.string().optional(),
  transport: stdioTransport,
  environmentVariables: z.array(keyValueInput).optional(),
});

const repository = z.strictObject({
  url: httpsUrl(),
  source: z.string().min(1),
  id: z.string().optional(),
  subfolder: z
    .string()
    .refine((s) => !s.startsWith("/") && !s.split("/").includes(".."), "must be a clean relative path")
    .optional(),
});

export const serverJsonSchema = z.strictObject({
  $schema: httpsUrl().optional(),
  name: z
    .string()
    .min(3)
    .max(200)
    .regex(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/, "reverse-DNS namespace, one slash, then the server's name"),
  title: z.string().min(1).max(100).optional(),
  description: z.string().min(1).max(100),
  version: exactVersion,
  websiteUrl: httpsUrl().optional(),
  repository: repository.optional(),
  packages: z.array(packageEntry).optional(),
});

export type ServerJson = z.infer<typeof serverJsonSchema>;

/** The problems with a server.json, one line each (empty when it is valid). */
export function serverJsonProblems(doc: unknown): string[] {
  const parsed = serverJsonSchema.safeParse(doc);
  if (parsed.success) return [];
  return parsed.error.issues.map((i) => `${i.path.join(".") || "(top)"}: ${i.message}`);
}
