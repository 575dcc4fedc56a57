/**
 * The bin's warm-up (src/bin/sdk-side.ts): after an opening that reached tools/list, one health call
 * replayed through the SDK's session with the opening, its answer dropped, so a harness's first real
 * call finds the SDK's side warm too (issue 31), and the start-up probe told once it is answered.
 */
import { describe, expect, it, vi } from "vitest";
import { withWarmUp } from "../src/bin/sdk-side.js";
import type { Json } from "../src/json.js";
import type { OpenSession } from "../src/protocol/stdio.js";
import { createServer } from "../src/server.js";
import { fakeDiscover } from "./helpers/fake-backend.js";

// The SDK's own message check, watched (it still checks): the replay goes through it.
vi.mock("@modelcontextprotocol/server", async (importOriginal) => {
  const sdk = await importOriginal<typeof import("@modelcontextprotocol/server")>();
  return { ...sdk, parseJSONRPCMessage: vi.fn(sdk.parseJSONRPCMessage) };
});

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};
const LEGACY: Json[] = [
  {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: 1, method: "tools/list" },
];
const MODERN: Json[] = [
  { jsonrpc: "2.0", id: 0, method: "server/discover", params: { _meta: ENVELOPE } },
  { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: ENVELOPE } },
];
const HEALTH = (extra: Json = {}) => ({
  jsonrpc: "2.0",
  id: "warm-up",
  method: "tools/call",
  params: { name: "health", arguments: {}, ...extra },
});
const io = { write: () => undefined, ended: () => undefined };

/** An OpenSession double that records what it was asked to replay and whether it was told to report. */
function recording() {
  const opened: { opening: readonly Json[]; replayed?: () => void }[] = [];
  const open: OpenSession = (_io, opening, replayed) => {
    opened.push({ opening, replayed });
    return { deliver: () => undefined, close: async () => undefined };
  };
  return { open, opened };
}

describe("what the warm-up replays", () => {
  it.each([
    ["2025 era", LEGACY, {}],
    ["2026-07-28, in the opening's own envelope", MODERN, { _meta: ENVELOPE }],
  ] as const)("after a %s opening: one health call, after it", (_era, opening, extra) => {
    const { open, opened } = recording();
    const warmed = () => undefined;
    withWarmUp(open, warmed)(io, opening);
    expect(opened).toEqual([{ opening: [...opening, HEALTH(extra)], replayed: warmed }]);
  });

  it.each([
    ["nothing taken", []],
    ["an opening short of tools/list", LEGACY.slice(0, 2)],
  ] as const)("%s: no call, and the probe's turn at once", (_what, opening) => {
    const { open, opened } = recording();
    let warmed = 0;
    withWarmUp(open, () => {
      warmed += 1;
    })(io, opening);
    expect(opened).toEqual([{ opening, replayed: undefined }]);
    expect(warmed).toBe(1);
  });
});

describe("the warm-up through the real session", () => {
  it.each([
    ["2025 era", LEGACY],
    ["2026-07-28", MODERN],
  ] as const)(
    "%s: the call reaches the tool through the SDK, writes nothing, and is reported once",
    async (_era, opening) => {
      const fake = fakeDiscover(() => ({ status: 200, body: { status: "ok", version: "1.8.3" } }));
      const { server } = createServer({ env: {}, discoverFn: fake.discoverFn });
      const frames: string[] = [];
      let reported = 0;
      try {
        const warmedUp = new Promise<void>((resolve) => {
          withWarmUp(server.open, () => {
            reported += 1;
            resolve();
          })({ write: (frame) => void frames.push(frame), ended: () => undefined }, opening);
        });
        await warmedUp;
        expect(fake.discoveries()).toBe(1);
        expect(fake.seen.map((r) => r.path)).toContain("/api/health");
        // Nothing more comes: no second report, no frame of the replay on stdout.
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(reported).toBe(1);
        expect(frames).toEqual([]);
      } finally {
        await server.close();
      }
    },
  );
});

describe("the replay", () => {
  it("is checked by the SDK as any message is, so the first real one finds that check compiled", async () => {
    // The suite shares modules between files (isolate: false): another file may have loaded the
    // protocol layer with the SDK unwatched, so this case loads it afresh, under the mock above.
    vi.resetModules();
    const fresh = await import("../src/server.js");
    const sdk = await import("@modelcontextprotocol/server");
    const { server } = fresh.createServer({
      env: {},
      discoverFn: fakeDiscover(() => ({ status: 500, body: {} })).discoverFn,
    });
    const checked = vi.mocked(sdk.parseJSONRPCMessage);
    checked.mockClear();
    const session = server.open(io, MODERN);
    const ids = checked.mock.calls.map(([message]) => (message as { id?: unknown }).id);
    expect(ids).toEqual(["resmon-mcp/opening-replay-0", "resmon-mcp/opening-replay-1"]);
    void session.close();
  });
});
