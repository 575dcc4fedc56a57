/**
 * No refusal a model sees names the user's home directory (issue 41 point 7): a path there is said
 * from `~`, so discovery's port and token files stay paths the person can follow.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { homeAsTilde } from "../src/errors.js";
import { cleanEnv, HAVE_CLI, RawServer } from "./helpers/spawn.js";

describe("homeAsTilde", () => {
  it("says a path in the home directory from ~, in every string of a refusal, only at a path's boundary", () => {
    const envelope = {
      error: "backend_unavailable",
      message:
        "the port file at /home/al/.local/state/resmon/resmon.port. Not /home/alice/x, nor /home/al.old.",
      detail: { tried: ["/home/al/x"], nested: { path: "/home/al" }, count: 3 },
    };
    expect(homeAsTilde(envelope, "/home/al/")).toEqual({
      error: "backend_unavailable",
      message: "the port file at ~/.local/state/resmon/resmon.port. Not /home/alice/x, nor /home/al.old.",
      detail: { tried: ["~/x"], nested: { path: "~" }, count: 3 },
    });
    expect(homeAsTilde("C:\\Users\\al\\AppData\\Local\\x", "C:\\Users\\al")).toBe("~\\AppData\\Local\\x");
    // A home of "/" (a service account) says nothing by being left out: nothing is rewritten.
    expect(homeAsTilde("/var/lib/x", "/")).toBe("/var/lib/x");
  });
});

describe.skipIf(!HAVE_CLI)("a refusal through the server", () => {
  const dir = mkdtempSync(join(tmpdir(), "resmon-mcp-home-"));
  const home = join(dir, "home", "alice");
  mkdirSync(home, { recursive: true });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("backend_unavailable with nothing named says the default port file from ~, never the home directory", async () => {
    const server = new RawServer(cleanEnv({ HOME: home }));
    try {
      await server.initialize();
      const frame = await server.request(1, "tools/call", { name: "list_routines", arguments: {} });
      const text = JSON.stringify(frame);
      expect(text).toContain("backend_unavailable");
      expect(text).toContain("~/");
      expect(text).not.toContain(home);
    } finally {
      await server.stop();
    }
  });
});
