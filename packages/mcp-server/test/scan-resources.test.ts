/**
 * A scan's evidence as MCP resources and the literature_scan prompt (issue 30, contract 1.5): the
 * built `resmon-mcp` over stdio with the v2 SDK Client, in both protocol eras, against the stand-in.
 * A finished scan's three files are linked from the answer that completes it, listed, and read by
 * URI byte-equal to the files on disk; every other URI is refused -32602 with the contract's
 * `{error, message, detail}` as data and nothing of any file in it.
 */
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CallToolResult, VersionNegotiationMode } from "@modelcontextprotocol/client";
import { SCAN_EVIDENCE_RESOURCES } from "@resmon/mcp-contract";
import { MAX_EVIDENCE_BYTES } from "@resmon/scan";
import { followScan, scanStartArgs, startTestkit, type Testkit } from "@resmon/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isError, parsed } from "./helpers/mcp.js";
import { openScanSession, randomScanId, type ScanSession } from "./helpers/scan-session.js";
import { HAVE_CLI } from "./helpers/spawn.js";

const MODERN = "2026-07-28";
const ERAS: [string, VersionNegotiationMode | undefined][] = [
  ["2025 era (initialize)", undefined],
  [`${MODERN} era`, { pin: MODERN }],
];

let kit: Testkit;
let dir: string;
let dataDir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "resmon-mcp-resources-"));
  dataDir = join(dir, "scans");
  kit = await startTestkit({ stateDir: dir, seed: "demo" });
  kit.setAdmission({ runDurationMs: 100 });
}, 60_000);
afterAll(async () => {
  await kit?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Run a whole corpus scan, keeping every raw tool result. */
async function runScan(session: ScanSession) {
  const scanId = randomScanId();
  const raw: CallToolResult[] = [];
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = (await session.client.callTool(
      { name, arguments: args },
      { timeout: 120_000 },
    )) as CallToolResult;
    raw.push(result);
    return { ok: !isError(result), body: parsed(result) };
  };
  await followScan(call, scanStartArgs({ scanId, retrieval: "corpus", profile: "quick" }));
  return { scanId, raw };
}

/** The -32602 refusal a request got, with its data (the contract's error envelope). */
async function refusal(
  p: Promise<unknown>,
): Promise<{ code: number; message: string; data: Record<string, unknown> }> {
  try {
    await p;
  } catch (e) {
    const err = e as { code?: number; message: string; data?: Record<string, unknown> };
    return { code: err.code ?? 0, message: err.message, data: err.data ?? {} };
  }
  throw new Error("not refused");
}

const links = (r: CallToolResult) => r.content.filter((c) => c.type === "resource_link");

describe.skipIf(!HAVE_CLI)("a finished scan's evidence as resources, over stdio", () => {
  for (const [label, mode] of ERAS) {
    it(`${label}: linked from the answer that completes the scan, listed, read byte-equal to the files`, async () => {
      const session = await openScanSession(kit, dataDir, { RESMON_MCP_SCAN_WAIT_MS: "3000" }, mode);
      try {
        expect(session.client.getServerCapabilities()).toMatchObject({
          tools: {},
          prompts: {},
          resources: {},
        });
        const { scanId, raw } = await runScan(session);
        // Only the answers that say "complete" link the evidence: the completing scan_verify and the result after it.
        const completing = raw.findIndex((r) => parsed(r).phase === "complete");
        expect(completing).toBeGreaterThan(0);
        for (const r of raw.slice(0, completing)) expect(links(r)).toEqual([]);
        const linked = links(raw[completing] as CallToolResult);
        expect(linked.map((l) => (l as { uri: string }).uri)).toEqual(
          SCAN_EVIDENCE_RESOURCES.map((f) => `resmon-scan://${scanId}/${f.file}`),
        );
        expect(linked.map((l) => (l as { mimeType?: string }).mimeType)).toEqual([
          "text/markdown",
          "application/json",
          "application/x-bibtex",
        ]);

        const { resources } = await session.client.listResources();
        const mine = resources.filter((r) => r.uri.startsWith(`resmon-scan://${scanId}/`));
        expect(mine.map((r) => [r.uri, r.mimeType])).toEqual(
          SCAN_EVIDENCE_RESOURCES.map((f) => [`resmon-scan://${scanId}/${f.file}`, f.mime_type]),
        );
        const { resourceTemplates } = await session.client.listResourceTemplates();
        expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(["resmon-scan://{scan_id}/{file}"]);

        for (const f of SCAN_EVIDENCE_RESOURCES) {
          const uri = `resmon-scan://${scanId}/${f.file}`;
          const read = await session.client.readResource({ uri });
          expect(read.contents).toHaveLength(1);
          const content = read.contents[0] as { uri: string; mimeType?: string; text?: string };
          expect(content.uri).toBe(uri);
          expect(content.mimeType).toBe(f.mime_type);
          const onDisk = readFileSync(join(dataDir, scanId, f.file));
          expect(Buffer.from(content.text ?? "", "utf8").equals(onDisk), f.file).toBe(true);
          expect(mine.find((r) => r.uri === uri)?.size).toBe(onDisk.length);
        }
      } finally {
        await session.close();
      }
    }, 180_000);
  }

  it("refuses '..', another scan's id, an unknown name and a symlinked file, with the contract's error and nothing read", async () => {
    const session = await openScanSession(kit, dataDir, { RESMON_MCP_SCAN_WAIT_MS: "3000" });
    try {
      const { scanId } = await runScan(session);
      const secretDir = mkdtempSync(join(tmpdir(), "resmon-mcp-secret-"));
      const secret = join(secretDir, "secret.bib");
      writeFileSync(secret, "@misc{SECRET-THAT-MUST-NOT-BE-READ}");
      // Another scan's directory: its own id, holding a copy of this scan's state (another scan's id inside).
      const other = randomScanId();
      mkdirSync(join(dataDir, other), { mode: 0o700 });
      writeFileSync(join(dataDir, other, "scan.json"), readFileSync(join(dataDir, scanId, "scan.json")));
      writeFileSync(join(dataDir, other, "evidence.md"), "# SECRET-THAT-MUST-NOT-BE-READ");
      // A scan whose evidence.bib is a symlink out of the scans directory.
      const linked = randomScanId();
      mkdirSync(join(dataDir, linked), { mode: 0o700 });
      const state = JSON.parse(readFileSync(join(dataDir, scanId, "scan.json"), "utf8"));
      writeFileSync(join(dataDir, linked, "scan.json"), JSON.stringify({ ...state, scan_id: linked }));
      symlinkSync(secret, join(dataDir, linked, "evidence.bib"));
      // A scan of its own whose evidence.md is over the read's bound (a sparse file: nothing written).
      const large = randomScanId();
      mkdirSync(join(dataDir, large), { mode: 0o700 });
      writeFileSync(join(dataDir, large, "scan.json"), JSON.stringify({ ...state, scan_id: large }));
      writeFileSync(join(dataDir, large, "evidence.json"), "{}");
      writeFileSync(join(dataDir, large, "evidence.md"), "");
      truncateSync(join(dataDir, large, "evidence.md"), MAX_EVIDENCE_BYTES + 1);

      const cases: [string, string, Record<string, unknown>][] = [
        [
          `resmon-scan://${scanId}/../${other}/evidence.md`,
          "invalid_argument",
          { field: "uri", problem: "file" },
        ],
        [`resmon-scan://../${scanId}/evidence.md`, "invalid_argument", { field: "uri", problem: "scan_id" }],
        [`resmon-scan://${scanId}/..%2Fscan.json`, "invalid_argument", { field: "uri", problem: "file" }],
        [`resmon-scan://${scanId}/scan.json`, "invalid_argument", { field: "uri", problem: "file" }],
        [`resmon-scan://${scanId}/evidence.txt`, "invalid_argument", { field: "uri", problem: "file" }],
        [`file://${secret}`, "invalid_argument", { field: "uri", problem: "scheme" }],
        [`resmon-scan://${randomScanId()}/evidence.md`, "not_found", {}],
        [
          `resmon-scan://${other}/evidence.md`,
          "internal_error",
          { reason: "storage", problem: "wrong_scan_id" },
        ],
        [`resmon-scan://${linked}/evidence.bib`, "internal_error", { reason: "storage", problem: "symlink" }],
        [`resmon-scan://${large}/evidence.md`, "internal_error", { reason: "storage", problem: "too_large" }],
      ];
      for (const [uri, error, detail] of cases) {
        const r = await refusal(session.client.readResource({ uri }));
        expect(r.code, uri).toBe(-32602);
        expect(r.data, uri).toMatchObject({ error, detail, uri });
        expect(typeof r.data.message).toBe("string");
        expect(JSON.stringify(r), uri).not.toContain("SECRET");
        // No absolute path in what a model sees (issue 41): the scans directory is never named.
        expect(JSON.stringify(r), uri).not.toContain(dir);
      }
      // Listed is what a read serves (issue 41): not the symlink, the foreign copy or the oversized file.
      const { resources } = await session.client.listResources();
      const uris = resources.map((r) => r.uri);
      for (const uri of uris) await session.client.readResource({ uri });
      expect(uris).not.toContain(`resmon-scan://${linked}/evidence.bib`);
      expect(uris).not.toContain(`resmon-scan://${other}/evidence.md`);
      expect(uris).not.toContain(`resmon-scan://${large}/evidence.md`);
      expect(uris).toContain(`resmon-scan://${large}/evidence.json`);
      expect(JSON.stringify(resources)).not.toContain("SECRET");
      rmSync(secretDir, { recursive: true, force: true });
    } finally {
      await session.close();
    }
  }, 180_000);

  it("a read-only session (RESMON_MCP_READ_ONLY=1) lists and reads them, and offers no scan prompt", async () => {
    const writer = await openScanSession(kit, dataDir, { RESMON_MCP_SCAN_WAIT_MS: "3000" });
    let scanId: string;
    try {
      ({ scanId } = await runScan(writer));
    } finally {
      await writer.close();
    }
    const reader = await openScanSession(kit, dataDir, { RESMON_MCP_READ_ONLY: "1" });
    try {
      const { resources } = await reader.client.listResources();
      expect(resources.filter((r) => r.uri.includes(scanId))).toHaveLength(3);
      const md = await reader.client.readResource({ uri: `resmon-scan://${scanId}/evidence.md` });
      expect((md.contents[0] as { text: string }).text).toBe(
        readFileSync(join(dataDir, scanId, "evidence.md"), "utf8"),
      );
      // scan_result of the finished scan links the same files in this session too.
      const result = (await reader.client.callTool({
        name: "scan_result",
        arguments: { scan_id: scanId },
      })) as CallToolResult;
      expect(links(result)).toHaveLength(3);
      expect((await reader.client.listPrompts()).prompts).toEqual([]);
      const r = await refusal(
        reader.client.getPrompt({ name: "literature_scan", arguments: { question: "Q?" } }),
      );
      expect(r.data).toMatchObject({ error: "invalid_argument", detail: { read_only: true } });
    } finally {
      await reader.close();
    }
  }, 180_000);
});

describe.skipIf(!HAVE_CLI)("the literature_scan prompt, over stdio", () => {
  for (const [label, mode] of ERAS) {
    it(`${label}: listed with its arguments, and prompts/get fills them in`, async () => {
      const session = await openScanSession(kit, dataDir, {}, mode);
      try {
        expect(session.client.getProtocolEra()).toBe(mode === undefined ? "legacy" : "modern");
        const { prompts } = await session.client.listPrompts();
        expect(prompts).toEqual([
          expect.objectContaining({
            name: "literature_scan",
            arguments: [
              expect.objectContaining({ name: "question", required: true }),
              expect.objectContaining({ name: "sources", required: false }),
              expect.objectContaining({ name: "window", required: false }),
            ],
          }),
        ]);
        const got = await session.client.getPrompt({
          name: "literature_scan",
          arguments: {
            question: "Which methods predict protein structure?",
            sources: "arxiv, pubmed",
            window: "2021-01 to 2024-12",
          },
        });
        expect(got.messages).toHaveLength(1);
        const message = got.messages[0] as { role: string; content: { type: string; text: string } };
        expect(message.role).toBe("user");
        expect(message.content.type).toBe("text");
        expect(message.content.text).toContain("\nWhich methods predict protein structure?\n");
        expect(message.content.text).toContain("Sources: arxiv, pubmed.");
        expect(message.content.text).toContain("Window: 2021-01 to 2024-12.");
        expect(message.content.text).toContain("Follow next_action on every answer");
        const missing = await refusal(session.client.getPrompt({ name: "literature_scan", arguments: {} }));
        expect(missing.code).toBe(-32602);
        expect(missing.data).toMatchObject({ error: "invalid_argument", detail: { field: "question" } });
        const unknown = await refusal(session.client.getPrompt({ name: "nope", arguments: {} }));
        expect(unknown.data).toMatchObject({ error: "invalid_argument", detail: { field: "name" } });
      } finally {
        await session.close();
      }
    }, 60_000);
  }
});
