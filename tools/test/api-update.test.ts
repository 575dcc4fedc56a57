/**
 * api:update: the committed description is its output for resmon 2.3's OpenAPI, byte for byte;
 * it keeps structure only, names what it cannot decide, refuses what resmon does not serve, and
 * reads a running resmon's /openapi.json with the token discovery finds (never printing it).
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  buildDescription,
  main,
  operationKeys,
  type ResponsesFile,
  readResponsesFile,
  renderDescription,
  structureOnly,
} from "../src/api-update.js";
import { API_DESCRIPTION } from "../src/gen-api-types.js";
import { runMain } from "./helpers/run-main.js";

type JsonObject = { [key: string]: unknown };

const toolsDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const REAL = resolve(toolsDir, "../../shared/resmon/openapi.json");
const realText = await readFile(REAL, "utf8").catch(() => undefined);
const ours = await readResponsesFile();

/** A minimal resmon document: one path, prose everywhere, fields named like prose keywords. */
function tiny(): JsonObject {
  return {
    openapi: "3.1.0",
    info: { title: "resmon", description: "prose" },
    paths: {
      "/api/notes": {
        post: {
          summary: "Create a note",
          description: "Long prose.",
          tags: ["notes"],
          parameters: [
            { name: "title", in: "query", description: "d", schema: { type: "string", title: "T" } },
          ],
          requestBody: {
            required: true,
            content: { "application/json": { schema: { $ref: "#/components/schemas/NoteBody" } } },
          },
          responses: {
            "201": { description: "Successful Response", content: { "application/json": { schema: {} } } },
          },
        },
      },
    },
    components: {
      schemas: {
        NoteBody: {
          title: "NoteBody",
          type: "object",
          examples: [{ title: "x" }],
          properties: {
            title: { type: "string", title: "Title", description: "the note's title" },
            description: { type: "string" },
          },
          required: ["title"],
        },
      },
    },
  };
}

function file(operations: ResponsesFile["operations"]): ResponsesFile {
  return { ...ours, operations };
}

describe("structure only", () => {
  it("drops resmon's prose but keeps fields and parameters named title or description", () => {
    const out = structureOnly(tiny() as never) as JsonObject;
    const text = JSON.stringify(out);
    expect(text).not.toContain("prose");
    expect(text).not.toContain("Create a note");
    expect(text).not.toContain("the note's title");
    expect(text).not.toContain('"tags"');
    expect(text).not.toContain('"examples"');
    const schema = (out.components as { schemas: { NoteBody: JsonObject } }).schemas.NoteBody;
    expect(schema).toEqual({
      type: "object",
      properties: { title: { type: "string" }, description: { type: "string" } },
      required: ["title"],
    });
    expect(JSON.stringify((out.paths as JsonObject)["/api/notes"])).toContain('"name":"title"');
  });
});

describe("the merge", () => {
  it("types an operation our file does not decide as unknown at resmon's own status, and names it", () => {
    const built = buildDescription(tiny() as never, file({}));
    expect(built.undecided).toEqual(["POST /api/notes"]);
    const op = ((built.doc.paths as JsonObject)["/api/notes"] as { post: { responses: JsonObject } }).post;
    expect(Object.keys(op.responses)).toEqual(["201", "401", "403", "422", "default"]);
    expect(JSON.stringify(op.responses["201"])).toContain('"schema":{}');
  });

  it("uses our answer, and adds the guard's and FastAPI's errors to it", () => {
    const responses = {
      "201": { description: "made", content: { "application/json": { schema: { type: "object" } } } },
    };
    const built = buildDescription(
      tiny() as never,
      file({ "POST /api/notes": { basis: "test", responses } }),
    );
    expect(built.undecided).toEqual([]);
    const op = ((built.doc.paths as JsonObject)["/api/notes"] as { post: { responses: JsonObject } }).post;
    expect(op.responses["201"]).toEqual(responses["201"]);
    expect(op.responses["401"]).toEqual({ $ref: "#/components/responses/GuardRefused" });
  });

  it("refuses an answer for an operation resmon does not serve, and a schema name both sides use", () => {
    expect(() => buildDescription(tiny() as never, file({ "GET /api/gone": { unknown: "why" } }))).toThrow(
      /GET \/api\/gone/,
    );
    const clash = { ...ours, components: { ...ours.components, schemas: { NoteBody: {} } } };
    expect(() => buildDescription(tiny() as never, { ...clash, operations: {} })).toThrow(/NoteBody/);
  });
});

describe.skipIf(realText === undefined)("against ../shared/resmon/openapi.json", () => {
  it("regenerates the committed description byte for byte", async () => {
    const built = buildDescription(JSON.parse(realText ?? "{}"), ours);
    expect(built.undecided).toEqual([]);
    expect(operationKeys(built.doc)).toEqual(operationKeys(JSON.parse(realText ?? "{}")));
    expect(renderDescription(built)).toBe(await readFile(API_DESCRIPTION, "utf8"));
    const check = await runMain(main, ["--check", "--from", REAL]);
    expect(check.code, check.out).toBe(0);
  });

  it("--check fails on a stale description, and names a new operation of a newer resmon", async () => {
    const dir = await mkdtemp(join(tmpdir(), "api-update-"));
    try {
      const newer = JSON.parse(realText ?? "{}") as { paths: JsonObject };
      newer.paths["/api/notebooks"] = {
        get: { responses: { "200": { content: { "application/json": { schema: {} } } } } },
      };
      const path = join(dir, "openapi.json");
      await writeFile(path, JSON.stringify(newer));
      const { code, out } = await runMain(main, ["--check", "--from", path]);
      expect(code).toBe(1);
      expect(out).toContain("new operation GET /api/notebooks");
      expect(out).toContain("is stale");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  describe("from a running resmon's URL", () => {
    const token = "upd_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop";
    let stateDir = "";
    let url = "";
    let close: () => Promise<void> = async () => {};
    const seen: Array<string | undefined> = [];
    beforeAll(async () => {
      stateDir = await mkdtemp(join(tmpdir(), "api-update-state-"));
      const server = createServer((req, res) => {
        seen.push(req.headers.authorization);
        if (req.headers.authorization !== `Bearer ${token}`) {
          res.writeHead(401, { "content-type": "application/json" });
          res.end(
            '{"detail":{"reason":"token_invalid","message":"The local API token on this request is not this resmon\'s."}}',
          );
          return;
        }
        res.writeHead(200, { "content-type": "application/json" });
        if (req.url?.startsWith("/api/health")) {
          res.end(
            JSON.stringify({
              status: "ok",
              pid: 1,
              started_at: "2026-12-01T00:00:00+00:00",
              version: "2.3.0",
              embeddings: null,
              identity: {
                contract_version: 1,
                runtime_id: "0b6f4a2e-3c1d-4e5f-9a7b-8c9d0e1f2a3b",
                schema_version: 21,
                corpus_id: null,
                build_id: null,
              },
            }),
          );
        } else res.end(realText);
      });
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      const port = (server.address() as AddressInfo).port;
      url = `http://127.0.0.1:${port}/openapi.json`;
      await writeFile(join(stateDir, `api-token-${port}`), token, { mode: 0o600 });
      close = () => new Promise<void>((r) => server.close(() => r()));
    });
    afterAll(async () => {
      await close();
      await rm(stateDir, { recursive: true, force: true });
    });

    it("reads /openapi.json with the token discovery finds, and never prints it", async () => {
      vi.stubEnv("RESMON_STATE_DIR", stateDir);
      try {
        const { code, out } = await runMain(main, ["--check", "--from", url]);
        expect(code, out).toBe(0);
        expect(seen.at(-1)).toBe(`Bearer ${token}`);
        expect(out).not.toContain(token);
      } finally {
        vi.unstubAllEnvs();
      }
    });

    it("refuses a URL that is not loopback, and says why discovery failed", async () => {
      expect((await runMain(main, ["--from", "http://example.com/openapi.json"])).out).toContain(
        "is not http://127.0.0.1",
      );
      vi.stubEnv("RESMON_STATE_DIR", join(stateDir, "nowhere"));
      try {
        const { code, out } = await runMain(main, ["--check", "--from", url]);
        expect(code).toBe(1);
        expect(out).toContain("no_token_file");
        expect(out).not.toContain(token);
      } finally {
        vi.unstubAllEnvs();
      }
    });
  });
});
