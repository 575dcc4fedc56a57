import { afterEach, describe, expect, it } from "vitest";
import { cleanEnv, serverEnv } from "../src/env.js";

describe("the environment for a process started against the stand-in", () => {
  afterEach(() => {
    delete process.env.RESMON_PORT;
  });

  it("keeps PATH, leaves out RESMON_* from this machine, and names the stand-in", () => {
    process.env.RESMON_PORT = "51734";
    expect(cleanEnv().PATH).toBe(process.env.PATH);
    expect(cleanEnv()).not.toHaveProperty("RESMON_PORT");
    expect(serverEnv({ portFile: "/kit/resmon.port", stateDir: "/kit" }, { EXTRA: "1" })).toMatchObject({
      RESMON_PORT_FILE: "/kit/resmon.port",
      RESMON_STATE_DIR: "/kit",
      EXTRA: "1",
    });
    expect(serverEnv({ portFile: "/kit/resmon.port", stateDir: "/kit" })).not.toHaveProperty("RESMON_PORT");
  });

  it("keeps the scan tools' state in the stand-in's directory unless told otherwise, never the user's data dir", () => {
    const kit = { portFile: "/kit/resmon.port", stateDir: "/kit" };
    expect(serverEnv(kit).RESMON_MCP_SCAN_DATA).toBe("/kit/mcp-scans");
    expect(serverEnv(kit, { RESMON_MCP_SCAN_DATA: "/elsewhere" }).RESMON_MCP_SCAN_DATA).toBe("/elsewhere");
  });
});
