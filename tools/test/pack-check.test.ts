/** pack-check's own pieces: how a snippet's placeholders become this run's, the child environment, the pins. */
import { describe, expect, it } from "vitest";
import { NPM_TOOLS, toolsDirFor } from "../src/npm-tools.js";
import { fillIn, fillPath, type Where } from "../src/pack-check/fill.js";
import { cleanEnv } from "../src/pack-check/run.js";
import { REPO_ROOT } from "../src/pack-snippets.js";

const where: Where = {
  kit: { port: 40404, portFile: "/kit/resmon.port", stateDir: "/kit" },
  app: "/work/app",
  tarball: "/work/tarballs/resmon-mcp-server-1.0.0.tgz",
};

describe("pack-check", () => {
  it("fills a snippet's placeholders with the testkit's port, port file and state dir, and keeps the switches", () => {
    const launch = fillIn(
      {
        snippet: "x",
        server: "resmon",
        command: "npx",
        args: ["-y", "@resmon/mcp-server@1.0.0"],
        env: {
          RESMON_PORT: "51734",
          RESMON_PORT_FILE: "/path/to/resmon.port",
          RESMON_STATE_DIR: "/path/to/state",
          RESMON_MCP_READ_ONLY: "1",
        },
      },
      where,
    );
    expect(launch.env).toEqual({
      RESMON_PORT: "40404",
      RESMON_PORT_FILE: "/kit/resmon.port",
      RESMON_STATE_DIR: "/kit",
      RESMON_MCP_READ_ONLY: "1",
    });
    expect(launch.args).toEqual(["-y", "@resmon/mcp-server@1.0.0"]);
  });

  it("adds no variable a snippet did not set", () => {
    expect(fillIn({ snippet: "x", server: "resmon", command: "npx", args: [], env: {} }, where).env).toEqual(
      {},
    );
  });

  it("points the path placeholders at this node, this clone, the installed package and the packed tarball", () => {
    expect(fillPath("/absolute/path/to/node", where)).toBe(process.execPath);
    expect(fillPath("/path/to/resmon-mcp/packages/mcp-server/dist/resmon-mcp.cjs", where)).toBe(
      `${REPO_ROOT}/packages/mcp-server/dist/resmon-mcp.cjs`,
    );
    expect(
      fillPath("/Users/you/.resmon-mcp/node_modules/@resmon/mcp-server/dist/resmon-mcp.cjs", where),
    ).toBe("/work/app/node_modules/@resmon/mcp-server/dist/resmon-mcp.cjs");
    expect(fillPath("/path/to/resmon-mcp-server-1.0.0.tgz", where)).toBe(where.tarball);
    expect(fillPath("-y", where)).toBe("-y");
    expect(fillPath("/path/to/elsewhere", where)).toBe("/path/to/elsewhere");
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

  it("pins every npm CLI it installs, and a changed pin gets a cache directory of its own", () => {
    for (const spec of Object.values(NPM_TOOLS)) expect(spec).toMatch(/@\d+\.\d+\.\d+$/);
    const specs = Object.values(NPM_TOOLS);
    expect(toolsDirFor(specs, "/c")).toBe(toolsDirFor([...specs].reverse(), "/c"));
    expect(toolsDirFor([...specs.slice(1), "publint@0.3.26"], "/c")).not.toBe(toolsDirFor(specs, "/c"));
  });
});
