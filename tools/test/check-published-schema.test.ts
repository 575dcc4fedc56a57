import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main, publishedSchemaProblems } from "../src/check-published-schema.js";
import { SERVER_JSON, SERVER_SCHEMA_URL } from "../src/release-meta.js";

// A small schema of our own in the published one's dialect (draft-07, `definitions` + root `$ref`,
// an annotation keyword ajv does not know): the real text is fetched by the workflows, not kept here.
const schema = {
  $id: SERVER_SCHEMA_URL,
  $schema: "http://json-schema.org/draft-07/schema#",
  $ref: "#/definitions/ServerDetail",
  definitions: {
    ServerDetail: {
      type: "object",
      required: ["name", "description", "version"],
      properties: {
        name: {
          type: "string",
          pattern: "^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$",
          example: "io.github.user/weather",
        },
        websiteUrl: { type: "string", format: "uri" },
      },
    },
  },
};

describe("check-published-schema", () => {
  it("takes a draft-07 schema and checks formats", async () => {
    const server = JSON.parse(await readFile(SERVER_JSON, "utf8")) as Record<string, unknown>;
    expect(publishedSchemaProblems(schema, server)).toEqual([]);
    expect(publishedSchemaProblems(schema, { ...server, websiteUrl: "https://example.com/a b" })).toEqual([
      '/websiteUrl: must match format "uri"',
    ]);
    expect(publishedSchemaProblems(schema, { ...server, name: "no-namespace" })).toHaveLength(1);
  });

  it("refuses a schema that is not the one server.json names", async () => {
    const dir = await mkdtemp(join(tmpdir(), "published-schema-"));
    const file = join(dir, "server.schema.json");
    await writeFile(file, JSON.stringify({ ...schema, $id: "https://example.com/other.schema.json" }));
    await expect(main(["--schema-file", file])).rejects.toThrow(/not server\.json's \$schema/);
    await writeFile(file, JSON.stringify(schema));
    expect(await main(["--schema-file", file])).toBe(0);
  });
});
