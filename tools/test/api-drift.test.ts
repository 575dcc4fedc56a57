/** The drift check: passes on the real backend's OpenAPI, fails on every kind of drift it names. */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationKeys } from "../src/api-update.js";
import { compareDescriptions, main, OUR_DESCRIPTION } from "../src/check-backend-openapi.js";
import { runMain } from "./helpers/run-main.js";

type JsonObject = { [key: string]: unknown };

const toolsDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const REAL = resolve(toolsDir, "../../shared/resmon/openapi.json");
const realText = await readFile(REAL, "utf8").catch(() => undefined);
const ours = JSON.parse(await readFile(OUR_DESCRIPTION, "utf8")) as JsonObject;
/** How many operations our description holds: what a full check reports. */
const OPERATIONS = operationKeys(ours as never).length;

const sorted = (lines: string[]) => [...lines].sort();
/** The differences found in `copy`, in any order. */
function expectDifferences(copy: JsonObject, expected: string[]): void {
  expect(sorted(compareDescriptions(ours, copy).differences)).toEqual(sorted(expected));
}

/** A fresh copy of the real document to mutate. */
function theirs(): JsonObject {
  return JSON.parse(realText ?? "{}") as JsonObject;
}
function at(doc: JsonObject, ...keys: string[]): JsonObject {
  let node: unknown = doc;
  for (const key of keys) node = (node as JsonObject)[key];
  return node as JsonObject;
}
function paramsOf(doc: JsonObject, path: string, method: string): JsonObject[] {
  return at(doc, "paths", path, method).parameters as JsonObject[];
}

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "resmon-drift-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.skipIf(realText === undefined)("against ../shared/resmon/openapi.json", () => {
  it("finds no difference in the real backend's document", () => {
    const report = compareDescriptions(ours, theirs());
    expect(report.differences).toEqual([]);
    expect(report.checked.operations).toBe(OPERATIONS);
    expect(report.checked.parameters).toBeGreaterThan(120);
    expect(report.checked.bodyFields).toBeGreaterThan(150);
  });

  it("names each operation a newer backend adds, so it gets a decision", () => {
    const copy = theirs();
    const paths = at(copy, "paths");
    paths["/api/notebooks"] = { get: { responses: {} }, post: { responses: {} } };
    at(copy, "paths", "/api/routines").patch = { responses: {} };
    expectDifferences(copy, [
      "PATCH /api/routines: new in the backend; decide its answer in contract/resmon-api.responses.json and run api:update",
      "GET /api/notebooks: new in the backend; decide its answer in contract/resmon-api.responses.json and run api:update",
      "POST /api/notebooks: new in the backend; decide its answer in contract/resmon-api.responses.json and run api:update",
    ]);
  });

  it("fails when a parameter's required flag or a body's media type changes", () => {
    const copy = theirs();
    const limit = paramsOf(copy, "/api/reading-queue", "get").find((p) => p.name === "limit");
    if (limit) limit.required = true;
    const body = at(copy, "paths", "/api/configurations/import", "post", "requestBody");
    body.content = { "application/json": (body.content as JsonObject)["multipart/form-data"] as JsonObject };
    expectDifferences(copy, [
      "POST /api/configurations/import: the request body is multipart/form-data (required) here, application/json (required) in the backend",
      'GET /api/reading-queue: query parameter "limit" is optional here, required in the backend',
    ]);
  });

  it("fails when a query parameter is renamed in a copy (through the CLI)", async () => {
    const copy = theirs();
    const k = paramsOf(copy, "/api/documents/{document_id}/similar", "get").find((p) => p.name === "k");
    if (k) k.name = "count";
    const file = join(dir, "renamed-param.json");
    await writeFile(file, JSON.stringify(copy));
    const { code, out } = await runMain(main, [file]);
    expect(code).toBe(1);
    expect(out).toContain(
      'GET /api/documents/{document_id}/similar: query parameter "k" is not declared by the backend',
    );
  });

  it("fails when a path parameter is renamed (the path itself no longer exists)", () => {
    const copy = theirs();
    const paths = at(copy, "paths");
    paths["/api/documents/{id}/why"] = paths["/api/documents/{doc_id}/why"];
    delete paths["/api/documents/{doc_id}/why"];
    expectDifferences(copy, [
      "GET /api/documents/{doc_id}/why: the backend does not declare this path",
      "GET /api/documents/{id}/why: new in the backend; decide its answer in contract/resmon-api.responses.json and run api:update",
    ]);
  });

  it("fails when a body field is renamed, naming both sides of it", () => {
    const copy = theirs();
    const sweep = at(copy, "components", "schemas", "SweepRequest");
    const props = sweep.properties as JsonObject;
    props.sources = props.repositories;
    delete props.repositories;
    sweep.required = ["sources", "query"];
    expectDifferences(copy, [
      "POST /api/search/sweep body.repositories: we send it, the backend does not declare it",
      "POST /api/search/sweep body.sources: the backend requires it, we do not send it",
    ]);
  });

  it("fails on a type mismatch in a parameter and in a body field", () => {
    const copy = theirs();
    const limit = paramsOf(copy, "/api/executions", "get").find((p) => p.name === "limit");
    if (limit) limit.schema = { type: "string" };
    at(copy, "components", "schemas", "ExplorerSearchBody", "properties").sources = { type: "string" };
    expectDifferences(copy, [
      "POST /api/explorer/search body.sources: type mismatch (we send array, the backend declares string)",
      'GET /api/executions: query parameter "limit" type mismatch (we send integer, the backend declares string)',
    ]);
  });

  it("fails when a method disappears or the backend requires something new", () => {
    const copy = theirs();
    delete at(copy, "paths", "/api/settings/email").put;
    at(copy, "paths", "/api/watchdog", "get").parameters = [
      { name: "window", in: "query", required: true, schema: { type: "string" } },
    ];
    expectDifferences(copy, [
      'GET /api/watchdog: the backend requires query parameter "window", we do not declare it',
      "PUT /api/settings/email: the backend does not declare this method on the path",
    ]);
  });

  it("runs as a command and passes on the real file", async () => {
    const exec = promisify(execFile);
    const { stdout } = await exec(
      process.execPath,
      ["--import", "tsx", "src/check-backend-openapi.ts", REAL],
      // No wall bound of its own: the file's 60 s hang guard. The command loads no generator (0.5 s
      // of CPU); loading openapi-typescript made it 1.4 s, past 30 s of wall time under load.
      { cwd: toolsDir },
    );
    expect(stdout).toContain(`${OPERATIONS} operations`);
  });

  it("fetches a live backend's /openapi.json with the token and never prints it", async () => {
    const token = "drift_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklm";
    const tokenFile = join(dir, "api-token");
    await writeFile(tokenFile, `${token}\n`);
    const seen: Array<string | undefined> = [];
    const server = createServer((req, res) => {
      seen.push(req.headers.authorization);
      if (req.headers.authorization !== `Bearer ${token}`) {
        res
          .writeHead(401, { "content-type": "application/json" })
          .end('{"detail":{"reason":"token_invalid"}}');
        return;
      }
      res.writeHead(200, { "content-type": "application/json" }).end(realText);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/openapi.json`;
    try {
      const good = await runMain(main, ["--token-file", tokenFile, url]);
      expect(good.code).toBe(0);
      expect(seen[0]).toBe(`Bearer ${token}`);
      const refused = await runMain(main, [url]);
      expect(refused.code).toBe(1);
      expect(refused.out).toContain("HTTP 401");
      expect(good.out + refused.out).not.toContain(token);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe("--if-present", () => {
  it("exits 0 with a note when the file is absent, and 1 without the flag", async () => {
    const missing = join(dir, "no-such-openapi.json");
    const skipped = await runMain(main, ["--if-present", missing]);
    expect(skipped.code).toBe(0);
    expect(skipped.out).toContain("skipped");
    expect((await runMain(main, [missing])).code).toBe(1);
  });

  it("still fails on a present file that differs", async () => {
    const file = join(dir, "empty-openapi.json");
    await writeFile(file, JSON.stringify({ openapi: "3.1.0", paths: {} }));
    const result = await runMain(main, ["--if-present", file]);
    expect(result.code).toBe(1);
    expect(result.out).toContain(`${OPERATIONS} difference(s)`);
  });
});
