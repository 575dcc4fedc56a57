/**
 * The one configuration module (src/config.ts): every RESMON_* variable declared once, parsed once;
 * a value the server cannot use refused by name, never replaced by the default in silence.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_TIMEOUT_MS } from "@resmon/api-client";
import { DEFAULT_RETRY_WAIT_MS, DEFAULT_SCAN_WAIT_MS } from "@resmon/scan";
import { describe, expect, it } from "vitest";
import { helpLines, readConfig, startupLines, VARIABLES } from "../src/config.js";
import { createResmonTools } from "../src/server.js";
import { fakeDiscover } from "./helpers/fake-backend.js";

const PACKAGES = join(import.meta.dirname, "..", "..");

/** Every RESMON_* name the source of the server and its libraries mentions. */
function namesInSource(): Set<string> {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".ts"))
        for (const m of readFileSync(path, "utf8").matchAll(/\bRESMON_[A-Z_]*[A-Z]\b/g)) names.add(m[0]);
    }
  };
  for (const pkg of ["mcp-server", "api-client", "scan", "contract"]) walk(join(PACKAGES, pkg, "src"));
  return names;
}

describe("the variables table", () => {
  it("declares every RESMON_* variable the server and its libraries name, each once", () => {
    const declared = VARIABLES.map((v) => v.name);
    expect(new Set(declared).size).toBe(declared.length);
    // The build-time define is no variable.
    const ignored = new Set(["RESMON_PACKAGE_VERSION__"]);
    const named = [...namesInSource()].filter((n) => !ignored.has(n) && n !== "RESMON_MCP_");
    expect(named.filter((n) => !declared.includes(n))).toEqual([]);
  });

  it("states the defaults the libraries apply", () => {
    const byName = Object.fromEntries(VARIABLES.map((v) => [v.name, v.default]));
    expect(byName.RESMON_MCP_TIMEOUT_MS).toBe(String(DEFAULT_TIMEOUT_MS));
    expect(byName.RESMON_MCP_MAX_BODY_BYTES).toMatch(new RegExp(`^${DEFAULT_MAX_BODY_BYTES}\\b`));
    expect(byName.RESMON_MCP_SCAN_WAIT_MS).toBe(String(DEFAULT_SCAN_WAIT_MS));
    expect(byName.RESMON_MCP_SCAN_RETRY_WAIT_MS).toBe(String(DEFAULT_RETRY_WAIT_MS));
  });

  it("--help lists every variable", () => {
    const help = helpLines().join("\n");
    for (const v of VARIABLES) expect(help).toContain(v.name);
  });
});

describe("readConfig", () => {
  it("parses each value once, typed; unset or empty leaves the default", () => {
    const config = readConfig({
      RESMON_MCP_READ_ONLY: "1",
      RESMON_MCP_TIMEOUT_MS: " 1500 ",
      RESMON_MCP_MAX_BODY_BYTES: "65536",
      RESMON_MCP_SCAN_DATA: "/tmp/scans",
      RESMON_MCP_SCAN_WAIT_MS: "0",
    });
    expect(config).toMatchObject({
      readOnly: true,
      timeoutMs: 1500,
      maxBodyBytes: 65536,
      scanDataDir: "/tmp/scans",
      scanWaitMs: 0,
      problems: [],
    });
    expect(readConfig({ RESMON_MCP_TIMEOUT_MS: "", RESMON_MCP_SCAN_WAIT_MS: "" })).toMatchObject({
      timeoutMs: undefined,
      scanWaitMs: undefined,
      problems: [],
    });
  });

  it.each([
    ["RESMON_MCP_TIMEOUT_MS", "30s"],
    ["RESMON_MCP_TIMEOUT_MS", "0"],
    ["RESMON_MCP_TIMEOUT_MS", "1e3"],
    // Past setTimeout's ceiling a timer fires at once: no wait at all, not a long one.
    ["RESMON_MCP_TIMEOUT_MS", "3000000000"],
    ["RESMON_MCP_MAX_BODY_BYTES", "6MiB"],
    ["RESMON_MCP_MAX_BODY_BYTES", "-1"],
    // A ceiling near 2^53 is no ceiling (issue 34); 64 MiB is the most it takes.
    ["RESMON_MCP_MAX_BODY_BYTES", "9007199254740991"],
    ["RESMON_MCP_MAX_BODY_BYTES", "67108865"],
    // Only spaces is a value, not unset: refused, never the default in silence (issue 34).
    ["RESMON_MCP_TIMEOUT_MS", "  "],
    ["RESMON_MCP_MAX_BODY_BYTES", "\t"],
    ["RESMON_MCP_SCAN_WAIT_MS", " "],
    ["RESMON_MCP_SCAN_DATA", "   "],
    ["RESMON_MCP_SCAN_WAIT_MS", "1.5"],
    ["RESMON_MCP_SCAN_DATA", "scans"],
    ["RESMON_MCP_SCAN_DATA", "./here/scans"],
  ])("%s=%j is refused by name, saying what it takes", (name, value) => {
    const config = readConfig({ [name]: value });
    expect(config.problems).toHaveLength(1);
    const [problem] = config.problems;
    expect(problem?.variable).toBe(name);
    const takes = VARIABLES.find((v) => v.name === name)?.takes ?? "?";
    expect(problem?.message).toBe(
      `${name} is set to ${JSON.stringify(value)}, which is not ${takes}; unset it for the default (${VARIABLES.find((v) => v.name === name)?.default}).`,
    );
    const lines = startupLines(config);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(name);
  });

  it("RESMON_MCP_READ_ONLY with spaces around 1 is read-only (fails closed), said at start", () => {
    for (const value of ["1 ", " 1", "\t1\n"]) {
      const config = readConfig({ RESMON_MCP_READ_ONLY: value });
      expect(config.readOnly, JSON.stringify(value)).toBe(true);
      expect(startupLines(config)[0]).toContain("read as 1: this server is read-only");
    }
    expect(readConfig({ RESMON_MCP_MAX_BODY_BYTES: "67108864" }).maxBodyBytes).toBe(67108864);
  });

  it("RESMON_MCP_READ_ONLY is read-only for 1; anything else is the full surface, said at start", () => {
    for (const value of ["true", "yes", "01", "0"]) {
      const config = readConfig({ RESMON_MCP_READ_ONLY: value });
      expect(config.readOnly, value).toBe(false);
      expect(config.problems).toEqual([]);
      expect(startupLines(config)[0]).toContain("not 1, so this server serves the full surface");
    }
    expect(startupLines(readConfig({ RESMON_MCP_READ_ONLY: "1" }))).toEqual([]);
  });

  it("never echoes a long value", () => {
    const [problem] = readConfig({ RESMON_MCP_TIMEOUT_MS: "x".repeat(500) }).problems;
    expect(problem?.message).not.toContain("xxxxxxxxxx");
    expect(problem?.message).toContain("500 characters");
  });
});

describe("a server with a value it cannot use", () => {
  it("answers every tool call backend_unavailable naming the variable, sending nothing", async () => {
    const fake = fakeDiscover(() => ({ status: 200, body: { status: "ok" } }));
    const tools = createResmonTools({ env: { RESMON_MCP_TIMEOUT_MS: "30s" }, discoverFn: fake.discoverFn });
    const outcome = await tools.call("health", {});
    await tools.close();
    expect(outcome).toMatchObject({
      ok: false,
      error: {
        error: "backend_unavailable",
        detail: { reason: "bad_configuration", variable: "RESMON_MCP_TIMEOUT_MS" },
      },
    });
    expect(fake.discoveries()).toBe(0);
    expect(fake.seen).toEqual([]);
  });

  it("a relative RESMON_MCP_SCAN_DATA refuses the scan tools, and only them", async () => {
    const fake = fakeDiscover(() => ({ status: 200, body: [] }));
    const tools = createResmonTools({ env: { RESMON_MCP_SCAN_DATA: "scans" }, discoverFn: fake.discoverFn });
    const scan = await tools.call("scan_result", { scan_id: "0b6f1d2e-3c4a-4b5d-8e6f-7a8b9c0d1e2f" });
    const other = await tools.call("list_routines", {});
    await tools.close();
    expect(scan).toMatchObject({
      ok: false,
      error: { error: "backend_unavailable", detail: { variable: "RESMON_MCP_SCAN_DATA" } },
    });
    expect(JSON.stringify(scan)).toContain("an absolute directory path");
    expect(other.ok, JSON.stringify(other)).toBe(true);
  });
});
