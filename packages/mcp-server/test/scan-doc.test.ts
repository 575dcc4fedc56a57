/**
 * docs/scan.md, run as a harness would run it: every call block in order against the stand-in's demo
 * data at the default settings, each answer block matched against what the server answered. A block
 * marked `each` is sent as written for the current batch or page, then again (the same judgement,
 * the next items' doc_ids, ranks going on) for every next one while next_action stays the same; its
 * `last` answer is matched after that.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { payloadItems, startTestkit, type Testkit } from "@resmon/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectInMemory, isError, parsed } from "./helpers/mcp.js";

type Row = Record<string, unknown>;
interface Block {
  kind: "call" | "answer";
  mode: string | undefined;
  json: Row;
}

const DOC = resolve(import.meta.dirname, "../../../docs/scan.md");

/** The doc's call and answer blocks, in order. */
function docBlocks(text: string): Block[] {
  const found = [...text.matchAll(/<!-- scan-(call|answer)(?:: (\w+))? -->\s*```json\n([\s\S]*?)```/g)];
  return found.map((m) => ({
    kind: m[1] as Block["kind"],
    mode: m[2],
    json: JSON.parse(m[3] as string) as Row,
  }));
}

let kit: Testkit;
let dir: string;
let session: Awaited<ReturnType<typeof connectInMemory>>;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "resmon-mcp-scan-doc-"));
  // The demo data at the stand-in's default run duration, and the server's default scan wait.
  kit = await startTestkit({ stateDir: dir, seed: "demo" });
  session = await connectInMemory({
    env: {
      RESMON_PORT_FILE: kit.portFile ?? "",
      RESMON_STATE_DIR: dir,
      RESMON_MCP_SCAN_DATA: join(dir, "scans"),
    },
  });
});
afterAll(async () => {
  await session?.close();
  await kit?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function call(tool: string, args: Row): Promise<Row> {
  const result = await session.client.callTool({ name: tool, arguments: args });
  const body = parsed(result);
  if (isError(result)) throw new Error(`${tool} refused the doc's call: ${JSON.stringify(body)}`);
  return body;
}

/** The doc's judgement applied to the next batch or page: its first entry's values, the items' ids. */
function again(args: Row, envelope: Row, ranked: number): Row {
  const items = payloadItems(envelope);
  if (Array.isArray(args.screen_scores)) {
    const { doc_id: _id, ...judgement } = args.screen_scores[0] as Row;
    return { scan_id: args.scan_id, screen_scores: items.map((it) => ({ doc_id: it.doc_id, ...judgement })) };
  }
  return {
    scan_id: args.scan_id,
    ranked_entries: items.map((it, i) => ({ doc_id: it.doc_id, rank: ranked + i + 1 })),
  };
}

describe("docs/scan.md: one copy-paste call per step, on the demo data", () => {
  it("has a call for every tool and step, each followed by its answer", () => {
    const blocks = docBlocks(readFileSync(DOC, "utf8"));
    const calls = blocks.filter((b) => b.kind === "call").map((b) => b.json.tool);
    expect(calls).toEqual([
      "scan_start",
      "scan_continue",
      "scan_continue",
      "scan_continue",
      "scan_continue",
      "scan_verify",
      "scan_result",
    ]);
    blocks.forEach((b, i) => {
      if (b.kind === "call") expect(blocks[i + 1]?.kind).toBe("answer");
    });
  });

  it("every call runs as written and answers what the doc shows", { timeout: 120_000 }, async () => {
    const blocks = docBlocks(readFileSync(DOC, "utf8"));
    let envelope: Row = {};
    let sent: Block | undefined;
    let ranked = 0;
    for (const block of blocks) {
      if (block.kind === "call") {
        sent = block;
        const args = block.json.arguments as Row;
        envelope = await call(String(block.json.tool), args);
        if (Array.isArray(args.ranked_entries)) ranked += args.ranked_entries.length;
        continue;
      }
      if (block.mode === "last" && sent?.mode === "each") {
        const asked = (sent.json.arguments as Row).screen_scores ? "screen_candidates" : "rank_shortlist";
        for (let i = 0; i < 50 && envelope.next_action === asked; i++) {
          const next = again(sent.json.arguments as Row, envelope, ranked);
          envelope = await call("scan_continue", next);
          if (Array.isArray(next.ranked_entries)) ranked += next.ranked_entries.length;
        }
      }
      expect(
        envelope,
        `the answer after ${String(sent?.json.tool)} (${block.mode ?? "first"})`,
      ).toMatchObject(block.json);
    }
    expect(envelope.payload).toHaveProperty("markdown");
  });
});
