/**
 * Every operation has a decided answer: typed (with the basis it comes from) or unknown with a
 * reason, and the client's README says the same (its unknown list and its group table).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { operationKeys, readResponsesFile } from "../src/api-update.js";
import { API_DESCRIPTION } from "../src/gen-api-types.js";
import { REPO_ROOT } from "../src/pack-snippets.js";

type JsonObject = { [key: string]: unknown };

const answers = await readResponsesFile();
const description = JSON.parse(await readFile(API_DESCRIPTION, "utf8")) as JsonObject;
const readme = await readFile(join(REPO_ROOT, "packages", "api-client", "README.md"), "utf8");
const keys = operationKeys(description as never);
const unknownKeys = keys.filter((k) => answers.operations[k]?.unknown !== undefined);
const groupOf = (key: string) => key.split(" ")[1]?.split("/")[2] ?? "";

function successSchemas(key: string): unknown[] {
  const [method = "", path = ""] = key.split(" ");
  const paths = description.paths as Record<
    string,
    Record<string, { responses: Record<string, JsonObject> }>
  >;
  const responses = paths[path]?.[method.toLowerCase()]?.responses ?? {};
  return Object.entries(responses)
    .filter(([status]) => /^2\d\d$/.test(status))
    .flatMap(([, r]) =>
      Object.values((r.content ?? {}) as Record<string, { schema: unknown }>).map((m) => m.schema),
    );
}

describe("the answers", () => {
  it("decide every operation, typed with a basis or unknown with a reason", () => {
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      const answer = answers.operations[key];
      expect(answer, key).toBeDefined();
      if (answer?.unknown !== undefined) {
        expect(answer.unknown.length, key).toBeGreaterThan(20);
        expect(successSchemas(key), key).toEqual([{}]);
      } else {
        expect(answer?.basis?.length ?? 0, key).toBeGreaterThan(20);
        expect(successSchemas(key).length, key).toBeGreaterThan(0);
        for (const schema of successSchemas(key)) expect(schema, key).not.toEqual({});
      }
    }
  });

  it("are listed in the client's README: each unknown one under its reason", () => {
    const section = readme.slice(readme.indexOf("## Answers not known"));
    for (const key of unknownKeys) {
      const reason = answers.operations[key]?.unknown ?? "";
      const heading = `**${reason[0]?.toUpperCase()}${reason.slice(1)}.**`;
      const block = section.slice(section.indexOf(heading));
      expect(section, heading).toContain(heading);
      expect(block.slice(0, block.indexOf("\n\n**", 1) >>> 0), key).toContain(`- \`${key}\``);
    }
    const listed = [...section.matchAll(/^- `([A-Z]+ \/[^`]+)`$/gm)].map((m) => m[1]);
    expect(listed.sort()).toEqual([...unknownKeys].sort());
  });

  it("match the README's group table, typed / unknown per row", () => {
    const rows = [...readme.matchAll(/^\| ([a-z, -]+?) +\| (\d+) \/ (\d+) +\|/gm)];
    const covered: string[] = [];
    for (const [, groups = "", typed, unknown] of rows) {
      const names = groups.split(", ");
      covered.push(...names);
      const inRow = keys.filter((k) => names.includes(groupOf(k)));
      expect(
        [
          inRow.length - inRow.filter((k) => unknownKeys.includes(k)).length,
          inRow.filter((k) => unknownKeys.includes(k)).length,
        ],
        groups,
      ).toEqual([Number(typed), Number(unknown)]);
    }
    expect(covered.sort()).toEqual([...new Set(keys.map(groupOf))].sort());
  });
});
