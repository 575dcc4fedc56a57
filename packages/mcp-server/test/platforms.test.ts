/**
 * Where a user's platform changes what the server meets (issue 45): CRLF lines from a Windows peer,
 * read by the built bin over a real pipe (whatever serves stdio inside it); the signals that stop it
 * and stdin's end, which is how a harness on Windows stops it; doctor on a token file whose mode
 * means nothing (Windows); a scans directory that names one place (a drive, on Windows).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isFullPath } from "@resmon/scan";
import { startTestkit, type Testkit } from "@resmon/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runDoctor, tokenFileReport } from "../src/bin/doctor.js";
import { pathValueWarnings } from "../src/bin/path-values.js";
import { stopSignals } from "../src/bin/stop-signals.js";
import { isScanDataPath } from "../src/config.js";
import { cleanEnv, HAVE_CLI, RawServer } from "./helpers/spawn.js";

describe.skipIf(!HAVE_CLI)("the built bin over a pipe, every line ending in CRLF", () => {
  let dir = "";
  let kit: Testkit;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "resmon-crlf-"));
    kit = await startTestkit({ stateDir: dir, seed: "small" });
  });
  afterAll(async () => {
    await kit?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers the opening, tools/list and a call, a CR and its LF in separate writes too; stdin's end stops it", async () => {
    const server = new RawServer(
      cleanEnv({ RESMON_STATE_DIR: dir, RESMON_PORT_FILE: kit.portFile ?? "", RESMON_MCP_SCAN_DATA: dir }),
    );
    const line = (message: Record<string, unknown>) =>
      `${JSON.stringify({ jsonrpc: "2.0", ...message })}\r\n`;
    try {
      server.peer.write(
        line({
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2025-11-25",
            capabilities: {},
            clientInfo: { name: "crlf", version: "0" },
          },
        }),
      );
      const opened = await waitFor(server, 1);
      expect(opened.result).toBeDefined();
      server.peer.write(
        `${line({ method: "notifications/initialized" })}${line({ id: 2, method: "tools/list" })}`,
      );
      const listed = (await waitFor(server, 2)).result as { tools: unknown[] };
      expect(listed.tools.length).toBeGreaterThan(0);
      const call = line({ id: 3, method: "tools/call", params: { name: "health", arguments: {} } });
      server.peer.write(call.slice(0, -1));
      server.peer.write("\n");
      const health = (await waitFor(server, 3)).result as { isError?: boolean; content: { text: string }[] };
      expect(health.isError).not.toBe(true);
      expect(health.content[0]?.text).toContain(kit.runtimeId);
      // No frame was refused as unparsable or invalid: the CR never reached a JSON parser.
      expect(server.frames().filter((f) => f.error !== undefined)).toEqual([]);
      // How a harness on Windows stops a server (it has no SIGTERM to send): stdin closed, exit 0.
      server.child.stdin?.end();
      const exit = await Promise.race([
        server.peer.exited,
        new Promise<"running">((r) => setTimeout(() => r("running"), 15_000)),
      ]);
      expect(exit).toEqual({ code: 0, signal: null });
    } finally {
      await server.stop();
    }
  });
});

async function waitFor(server: RawServer, id: number): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 45_000;
  for (;;) {
    const found = server.frames().find((f) => f.id === id);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no answer to ${id}; stdout: ${server.stdout.slice(-400)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("the signals that stop the server", () => {
  it("on Windows, the console's own (Ctrl-C, Ctrl-Break, the window closing); no wait for SIGTERM, which never comes there", () => {
    expect(stopSignals("win32")).toEqual(["SIGINT", "SIGBREAK", "SIGHUP"]);
    expect(stopSignals("linux")).toEqual(["SIGINT", "SIGTERM"]);
    expect(stopSignals("darwin")).toEqual(["SIGINT", "SIGTERM"]);
  });
});

describe("doctor on a token file readable by others", () => {
  let dir = "";
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "resmon-doctor-mode-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.skipIf(process.platform === "win32")(
    "warns by its mode on Linux and macOS; on Windows says the ACL decides and is not checked, no mode warning",
    async () => {
      const path = join(dir, "api-token-1");
      writeFileSync(path, "x", { mode: 0o644 });
      const posix = await tokenFileReport(path, "linux");
      expect(posix.warnings.join()).toMatch(/readable by others \(mode 644\)/);
      const win = await tokenFileReport(path, "win32");
      expect(win.warnings).toEqual([]);
      expect(win.state).toMatch(/Windows ACL, not checked/);
    },
  );
});

describe("RESMON_MCP_SCAN_DATA names one place", () => {
  const cases = [
    "C:\\Users\\a\\scans",
    "c:/scans",
    "\\\\server\\share\\scans",
    "\\scans",
    "/scans",
    "C:scans",
    "scans",
    "/home/a/scans",
  ];
  for (const platform of ["win32", "linux", "darwin"] as const) {
    it(`on ${platform}, as the scan engine judges it (config.ts restates @resmon/scan's isFullPath)`, () => {
      for (const path of cases) expect(isScanDataPath(path, platform), path).toBe(isFullPath(path, platform));
    });
  }

  it("on Windows, a path without its drive is refused", () => {
    expect(isScanDataPath("\\scans", "win32")).toBe(false);
    expect(isScanDataPath("C:\\scans", "win32")).toBe(true);
  });
});

describe("a path variable as a harness or cmd's `set` left it", () => {
  it("quotes kept by cmd, a %VAR% or $VAR nothing expanded, a ~ no shell saw: each warned, by name", () => {
    const warned = pathValueWarnings({
      RESMON_STATE_DIR: '"C:\\Users\\Ada Lovelace\\resmon"',
      RESMON_PORT_FILE: "%LOCALAPPDATA%\\resmon\\resmon.port",
      RESMON_DB_PATH: "$HOME/resmon/resmon.db",
      RESMON_MCP_SCAN_DATA: "~/scans",
    });
    expect(warned).toHaveLength(4);
    expect(warned[0]).toMatch(/^RESMON_PORT_FILE holds %LOCALAPPDATA%, which nothing expanded/);
    expect(warned[1]).toMatch(/^RESMON_DB_PATH holds \$HOME, which nothing expanded/);
    expect(warned[2]).toMatch(/^RESMON_STATE_DIR has quotes around its path.*set "RESMON_STATE_DIR=…"/);
    expect(warned[3]).toMatch(/^RESMON_MCP_SCAN_DATA starts with ~/);
  });

  it("a plain path, on any platform, is not warned about", () => {
    expect(
      pathValueWarnings({
        RESMON_STATE_DIR: "C:\\Users\\Ada Lovelace\\resmon",
        RESMON_PORT_FILE: "/home/ada/resmon dev/resmon.port",
        RESMON_MCP_SCAN_DATA: "/srv/~scans",
      }),
    ).toEqual([]);
  });

  it("doctor prints the warning under the variables", async () => {
    const home = mkdtempSync(join(tmpdir(), "resmon-doctor-quotes-"));
    try {
      const lines: string[] = [];
      const code = await runDoctor({
        env: { RESMON_STATE_DIR: `"${join(home, "state")}"` },
        homedir: home,
        write: (line) => lines.push(line),
      });
      expect(code).toBe(1);
      expect(lines.join("\n")).toMatch(/warning: +RESMON_STATE_DIR has quotes around its path/);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
