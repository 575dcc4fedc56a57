/**
 * A port or token file read that runs out of time says nothing against the file: the disk (or a
 * network filesystem) may be stalled, or the machine too loaded to run the read. The refusal names
 * both, never the disk alone, and does not tell anyone to remove the file and restart resmon. A real
 * stalled disk cannot be made on demand, so the read itself is stubbed.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { discover } from "../src/index.js";
import { startFakeResmon } from "./helpers/fake-resmon.js";
import { type LoopbackServer, TOKEN } from "./helpers/loopback-server.js";

vi.mock("../src/small-file.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../src/small-file.js")>();
  return { ...real, readSmallFile: async () => ({ ok: false, problem: "timeout" }) };
});

const servers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe("a port or token file read that timed out", () => {
  it("the token file: a stalled disk or a loaded machine, not a file to remove", async () => {
    const server = await startFakeResmon(TOKEN);
    servers.push(server);
    const found = await discover({
      env: { RESMON_PORT: String(server.port), RESMON_STATE_DIR: "/nonexistent" },
    });
    if (found.ok) throw new Error("expected a refusal");
    expect(found.refusal).toMatchObject({ kind: "unusable_token_file", fileProblem: "timeout" });
    expect(found.refusal.message).toContain("a stalled disk or network filesystem does this");
    expect(found.refusal.message).toContain("a machine too loaded to run the read");
    expect(found.refusal.message).not.toContain("remove it and restart resmon");
  });

  it("the port file: a stalled disk or a loaded machine, not a file resmon did not write", async () => {
    const found = await discover({ env: { RESMON_PORT_FILE: "/nonexistent/resmon.port" } });
    if (found.ok) throw new Error("expected a refusal");
    expect(found.refusal).toMatchObject({ kind: "unusable_port_file", fileProblem: "timeout" });
    expect(found.refusal.message).toContain("a stalled disk or network filesystem does this");
    expect(found.refusal.message).toContain("a machine too loaded to run the read");
    expect(found.refusal.message).not.toContain("A port file is a small regular file resmon writes");
  });
});
