/**
 * The start-up probe (src/bin/start-probe.ts), through the shipped bin: once the opening is
 * answered, the server says on stderr whether resmon answered and, if not, why in doctor's words;
 * the start never fails or waits on an absent resmon, and one that starts later is reached.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestkit, type Testkit } from "@resmon/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WHAT_TO_DO } from "../src/bin/doctor.js";
import { PROBE_PREFIX, probeLine } from "../src/bin/start-probe.js";
import { cleanEnv, HAVE_CLI, RawServer } from "./helpers/spawn.js";

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "resmon-probe-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Every stdout line a JSON-RPC 2.0 frame (the probe writes nothing there). */
function onlyFrames(stdout: string): void {
  for (const line of stdout.split("\n").filter((l) => l !== "")) {
    expect(JSON.parse(line)).toMatchObject({ jsonrpc: "2.0" });
  }
}

async function opened(server: RawServer): Promise<void> {
  await server.initialize();
  const list = await server.request(1, "tools/list");
  expect((list.result as { tools: unknown[] }).tools.length).toBeGreaterThan(0);
}

describe("what a discovery's outcome reads as", () => {
  it("a refusal: its kind, its message and doctor's advice for it, then where the check is", () => {
    const line = probeLine({
      ok: false,
      refusal: {
        kind: "no_token_file",
        message: "resmon's port 4 was named by RESMON_PORT, but there is no token file.",
        tried: [],
        portFile: "/p",
        stateDir: "/s",
      },
    });
    expect(line).toBe(
      `${PROBE_PREFIX} no resmon answered (no_token_file): resmon's port 4 was named by RESMON_PORT, but there is no token file. ` +
        `What to do: ${WHAT_TO_DO.no_token_file} This server keeps running and looks again on every tool call; ` +
        "`resmon-mcp doctor` with the same variables is the check.",
    );
  });
});

describe("a refusal where something did answer is not 'no resmon answered'", () => {
  it.each([
    ["token_refused", "a server answered on the named port but refused the token"],
    ["not_resmon", "something answered on the named port, but not as resmon"],
    ["not_answering", "no resmon answered"],
  ] as const)("%s", (kind, words) => {
    const line = probeLine({
      ok: false,
      refusal: { kind, message: "m.", tried: ["http://127.0.0.1:4"], portFile: "/p", stateDir: "/s" },
    });
    expect(line.startsWith(`${PROBE_PREFIX} ${words} (${kind}): m.`), line).toBe(true);
  });
});

describe.skipIf(!HAVE_CLI)("the start-up probe, through the bin", () => {
  it("resmon 1.7's public build (no guard, no token file): a resmon answered, not attached, update it", async () => {
    const state = join(dir, "public-17");
    const kit = await startTestkit({ stateDir: state, seed: "small", as: "1.7", unguarded: true });
    const server = new RawServer(cleanEnv({ RESMON_PORT: String(kit.port), RESMON_STATE_DIR: state }));
    try {
      await opened(server);
      const line = await server.probed();
      expect(line).toContain(
        `${PROBE_PREFIX} a resmon answered but is not attached to (unguarded_resmon): resmon 1.7.0`,
      );
      expect(line).toContain(`What to do: ${WHAT_TO_DO.unguarded_resmon}`);
      expect(line).not.toContain("no resmon answered");
      onlyFrames(server.stdout);
    } finally {
      await server.stop();
      await kit.stop();
    }
  });

  it("nothing listening on the named port: says so on stderr in doctor's words, keeps serving", async () => {
    const port = await closedPort();
    const server = new RawServer(
      cleanEnv({ RESMON_PORT: String(port), RESMON_STATE_DIR: join(dir, "none") }),
    );
    try {
      await opened(server);
      const line = await server.probed();
      expect(line).toContain(`(not_answering)`);
      expect(line).toContain(`http://127.0.0.1:${port}`);
      expect(line).toContain(`What to do: ${WHAT_TO_DO.not_answering}`);
      // Only the refusal that happened, not every explanation doctor has.
      expect(line).not.toContain(WHAT_TO_DO.no_token_file);
      const call = await server.request(2, "tools/call", { name: "health", arguments: {} });
      expect(JSON.stringify(call.result)).toContain("backend_unavailable");
      expect(server.child.exitCode).toBeNull();
      onlyFrames(server.stdout);
    } finally {
      await server.stop();
    }
  });

  describe("with a resmon", () => {
    let kit: Testkit | undefined;
    afterAll(async () => kit?.stop());

    it("started after the server: the probe said it was absent, the next call reaches it", async () => {
      const stateDir = join(dir, "later");
      const portFile = join(stateDir, "resmon.port");
      const server = new RawServer(cleanEnv({ RESMON_PORT_FILE: portFile, RESMON_STATE_DIR: stateDir }));
      try {
        await opened(server);
        expect(await server.probed()).toContain("no resmon answered");
        kit = await startTestkit({ stateDir, portFile, seed: "small" });
        const call = await server.request(2, "tools/call", { name: "health", arguments: {} });
        expect((call.result as { isError?: boolean }).isError).not.toBe(true);
        onlyFrames(server.stdout);
      } finally {
        await server.stop();
      }
    });

    it("running: says it answered, where, and sends it nothing but that probe", async () => {
      const running = kit as Testkit;
      const before = running.requests.length;
      const server = new RawServer(
        cleanEnv({ RESMON_PORT_FILE: running.portFile ?? "", RESMON_STATE_DIR: running.stateDir }),
      );
      try {
        await opened(server);
        const line = await server.probed();
        expect(line).toMatch(
          new RegExp(
            `^\\[resmon-mcp\\] ${PROBE_PREFIX} resmon answered at http://127\\.0\\.0\\.1:${running.port}`,
          ),
        );
        // The probe's discovery alone (its token-less health, which a guarded resmon refuses, then its
        // health), made by the time its line is out: no call was made, so nothing else was asked.
        expect(
          running.requests
            .slice(before)
            .map((r) => `${r.method} ${r.path} ${r.status}`)
            .sort(),
        ).toEqual(["GET /api/health 200", "GET /api/health 401"]);
        expect(server.stderr).not.toContain(running.token);
        onlyFrames(server.stdout);
      } finally {
        await server.stop();
      }
    });
  });
});
