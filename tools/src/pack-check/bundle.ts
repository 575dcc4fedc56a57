/** Check 6: the .mcpb bundle validated, packed, unpacked and started as Claude Desktop starts it. */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Testkit } from "@resmon/testkit";
import { buildBundle } from "../bundle.js";
import type { Tools } from "../npm-tools.js";
import { homeFor, tryLaunch } from "./launch.js";
import { record } from "./report.js";
import { exec, lastLines, pool } from "./run.js";

interface McpbLib {
  getMcpConfigForManifest(options: {
    manifest: unknown;
    extensionPath: string;
    systemDirs: Record<string, string>;
    userConfig: Record<string, unknown>;
    pathSeparator: string;
  }): Promise<{ command: string; args?: string[]; env?: Record<string, string> } | undefined>;
}

/** The bundle built, validated, unpacked and started as Claude Desktop starts it. */
export async function bundle(tools: Tools, work: string, kit: Testkit): Promise<void> {
  const built = await buildBundle(tools);
  record(
    "mcpb validate manifest.json",
    built.validate.code === 0,
    lastLines(built.validate.stdout + built.validate.stderr, 1),
  );
  record(
    "mcpb pack",
    built.pack.code === 0 && existsSync(built.path),
    built.pack.code === 0 ? built.path : lastLines(built.pack.stderr),
  );
  if (built.pack.code !== 0) return;
  const unpacked = join(work, "bundle-unpacked");
  const unpack = await exec(tools.bin("mcpb"), ["unpack", built.path, unpacked], { cwd: work });
  record("mcpb unpack", unpack.code === 0, lastLines(unpack.stdout + unpack.stderr, 1));
  if (unpack.code !== 0) return;
  const lib = (await import(
    pathToFileURL(join(tools.dir, "node_modules", "@anthropic-ai", "mcpb", "dist", "index.js")).href
  )) as McpbLib;
  const manifest = JSON.parse(await readFile(join(unpacked, "manifest.json"), "utf8")) as unknown;
  const cases: { label: string; settings: Record<string, unknown> }[] = [
    { label: "no settings (the packaged app's defaults)", settings: {} },
    {
      label: "port file and state directory",
      settings: { port_file: kit.portFile, state_dir: kit.stateDir },
    },
    {
      label: "port, state directory, read-only",
      settings: { port: kit.port, state_dir: kit.stateDir, read_only: true },
    },
  ];
  await pool(cases, 3, async ({ label, settings }) => {
    const home = await homeFor(work, `bundle-${Object.keys(settings).join("-") || "defaults"}`, kit);
    const config = await lib.getMcpConfigForManifest({
      manifest,
      extensionPath: unpacked,
      systemDirs: { HOME: home, DESKTOP: home, DOCUMENTS: home, DOWNLOADS: home },
      userConfig: settings,
      pathSeparator: "/",
    });
    if (!config)
      return record(
        `bundle started by Claude Desktop's rules: ${label}`,
        false,
        "no MCP config for these settings",
      );
    // Claude Desktop runs a node bundle with the Node it ships; here that is this node.
    const command = config.command === "node" ? process.execPath : config.command;
    await tryLaunch(
      `bundle started by Claude Desktop's rules: ${label}`,
      { snippet: "bundle", server: "resmon", command, args: config.args ?? [], env: config.env ?? {} },
      home,
      unpacked,
      settings.read_only === true,
    );
  });
}
