/** pack-check's own pieces: how a snippet's placeholders become a running testkit's, and the child environment. */
import type { Testkit } from "@resmon/testkit";
import { describe, expect, it } from "vitest";
import { CHECKERS, cleanEnv, fillIn } from "../src/pack-check.js";

const kit = { port: 40404, portFile: "/kit/resmon.port", stateDir: "/kit" } as unknown as Testkit;

describe("pack-check", () => {
  it("fills a snippet's placeholders with the testkit's port, port file and state dir, and keeps the switches", () => {
    const env = fillIn(
      {
        snippet: "x",
        command: "npx",
        args: [],
        env: {
          RESMON_PORT: "51734",
          RESMON_PORT_FILE: "/path/to/resmon.port",
          RESMON_STATE_DIR: "/path/to/state",
          RESMON_MCP_READ_ONLY: "1",
        },
      },
      kit,
    );
    expect(env).toEqual({
      RESMON_PORT: "40404",
      RESMON_PORT_FILE: "/kit/resmon.port",
      RESMON_STATE_DIR: "/kit",
      RESMON_MCP_READ_ONLY: "1",
    });
  });

  it("adds no variable a snippet did not set", () => {
    expect(fillIn({ snippet: "x", command: "npx", args: [], env: {} }, kit)).toEqual({});
  });

  it("starts children without pnpm's npm_* variables or a RESMON_* of the caller's", () => {
    const saved = { ...process.env };
    process.env.npm_config_frozen_lockfile = "true";
    process.env.NPM_CONFIG_USERCONFIG = "/x";
    process.env.RESMON_PORT = "1";
    process.env.XDG_STATE_HOME = "/elsewhere";
    try {
      const env = cleanEnv({ HOME: "/h" });
      expect(Object.keys(env).filter((k) => /^(npm_|resmon_)|^xdg_state_home$/i.test(k))).toEqual([]);
      expect(env.HOME).toBe("/h");
      expect(env.PATH).toBe(process.env.PATH);
    } finally {
      process.env = saved;
    }
  });

  it("pins every checker it installs", () => {
    for (const spec of Object.values(CHECKERS)) expect(spec).toMatch(/@\d+\.\d+\.\d+$/);
  });
});
