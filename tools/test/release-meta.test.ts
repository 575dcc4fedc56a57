/**
 * The release metadata: server.json valid by the MCP Registry's rules, mcpName matching it, the
 * versions of server.json, the bundle manifest and the package in step, `repository` everywhere.
 */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, SERVER_DIR } from "../src/pack-snippets.js";
import { serverJsonProblems } from "../src/registry-schema.js";
import {
  BUNDLE_MANIFEST,
  expectedFiles,
  MCP_NAME,
  PUBLISHED_PACKAGES,
  REPOSITORY_URL,
  SERVER_JSON,
  staleFiles,
} from "../src/release-meta.js";

type Json = Record<string, unknown>;
const read = async (path: string) => JSON.parse(await readFile(path, "utf8")) as Json;
const pkg = await read(resolve(SERVER_DIR, "package.json"));
const server = await read(SERVER_JSON);
const manifest = await read(BUNDLE_MANIFEST);

describe("server.json (MCP Registry)", () => {
  it("is valid by the registry's server.json rules", () => {
    expect(serverJsonProblems(server)).toEqual([]);
  });

  it("the rules refuse what the registry refuses", () => {
    const bad = (patch: Json) => serverJsonProblems({ ...server, ...patch });
    expect(bad({ name: "io.github.a/b/c" })).not.toEqual([]);
    expect(bad({ name: "no-namespace" })).not.toEqual([]);
    expect(bad({ description: "x".repeat(101) })).not.toEqual([]);
    expect(bad({ version: "^1.0.0" })).not.toEqual([]);
    expect(bad({ version: "latest" })).not.toEqual([]);
    expect(bad({ version: "1.x" })).not.toEqual([]);
    expect(bad({ packages: [{ registryType: "npm", identifier: "@resmon/mcp-server" }] })).not.toEqual([]);
    expect(bad({ descripton: "typo" })).not.toEqual([]);
    expect(bad({ repository: { url: "not a url", source: "github" } })).not.toEqual([]);
    // Both taken by zod's bare z.url() and refused by the published schema's `format: uri`
    // (found by a differential run of these rules against that schema).
    expect(bad({ websiteUrl: "A:" })).not.toEqual([]);
    expect(bad({ websiteUrl: "https://example.com/a b" })).not.toEqual([]);
  });

  it("names the server as package.json's mcpName does, and the npm package that carries it", () => {
    expect(server.name).toBe(MCP_NAME);
    expect(pkg.mcpName).toBe(MCP_NAME);
    const npm = (server.packages as Json[]).find((p) => p.registryType === "npm");
    expect(npm?.identifier).toBe(pkg.name);
  });

  it("lists exactly the variables the server reads to name an instance, and the read-only switch", () => {
    const npm = (server.packages as Json[])[0] as { environmentVariables: { name: string }[] };
    expect(npm.environmentVariables.map((v) => v.name)).toEqual([
      "RESMON_PORT",
      "RESMON_PORT_FILE",
      "RESMON_STATE_DIR",
      "RESMON_MCP_READ_ONLY",
    ]);
  });
});

describe("versions and repository, kept in step", () => {
  it("server.json, its npm package entry and the bundle manifest carry the package version", () => {
    expect(server.version).toBe(pkg.version);
    expect((server.packages as Json[])[0]?.version).toBe(pkg.version);
    expect(manifest.version).toBe(pkg.version);
  });

  it("every published package.json names the repository and its directory", async () => {
    for (const dir of PUBLISHED_PACKAGES) {
      const manifestOf = await read(resolve(REPO_ROOT, dir, "package.json"));
      expect(manifestOf.repository, dir).toEqual({
        type: "git",
        url: `git+${REPOSITORY_URL}.git`,
        directory: dir,
      });
    }
  });

  it("nothing is stale, and a file that drifted would be caught", async () => {
    expect(await staleFiles()).toEqual([]);
    const files = await expectedFiles();
    const { now, want } = files.get(SERVER_JSON) ?? { now: {}, want: {} };
    expect(isDeepStrictEqual({ ...now, version: "9.9.9" }, want)).toBe(false);
    const b = files.get(BUNDLE_MANIFEST) ?? { now: {}, want: {} };
    expect(
      isDeepStrictEqual({ ...b.now, repository: { type: "git", url: "https://x.example" } }, b.want),
    ).toBe(false);
  });
});

describe("the release workflow", () => {
  it("publishes with provenance and attaches the tarballs and the bundle to the release", async () => {
    const workflow = await readFile(resolve(REPO_ROOT, ".github/workflows/release.yml"), "utf8");
    const root = await read(resolve(REPO_ROOT, "package.json"));
    expect((root.scripts as Record<string, string>).release).toMatch(/publish .*--provenance/);
    expect(workflow).toContain("id-token: write");
    expect(workflow).toMatch(/pnpm pack --pack-destination/);
    expect(workflow).toMatch(/pnpm bundle/);
    expect(workflow).toMatch(/resmon-mcp-\$\{version\}\.mcpb/);
    expect(workflow).toMatch(/gh release upload "@resmon\/mcp-server@\$\{version\}"/);
  });
});

describe("the surface figures the bundle states", () => {
  it("are filled in when it is packed, from the table, and committed nowhere", async () => {
    const { statedFigures, withPackTimeFigures } = await import("../src/release-meta.js");
    const { bundleManifest } = await import("../src/bundle.js");
    const { CONTRACT_VERSION, READ_TOOLS, WRITE_TOOLS } = await import("@resmon/mcp-contract");
    const template = {
      a: ["{reads} reads, {writes} writes.", { b: "only the {reads} reads (contract {contract})" }],
      n: 3,
    };
    expect(withPackTimeFigures(template)).toEqual({
      a: [
        `${READ_TOOLS.length} reads, ${WRITE_TOOLS.length} writes.`,
        { b: `only the ${READ_TOOLS.length} reads (contract ${CONTRACT_VERSION})` },
      ],
      n: 3,
    });
    const packed = await bundleManifest();
    expect(packed.description).toContain(`${READ_TOOLS.length} reads, ${WRITE_TOOLS.length} writes`);
    expect(packed.long_description).toContain(`(contract ${CONTRACT_VERSION})`);
    expect(JSON.stringify(packed)).not.toMatch(/\{(reads|writes|contract)\}/);
    // What is committed states none: a new tool edits neither file.
    expect(statedFigures(server)).toEqual([]);
    expect(statedFigures(manifest)).toEqual([]);
    expect(statedFigures({ x: ["list only the 18 reads"], y: "contract 1.0" })).toHaveLength(2);
  });
});

describe("pending changesets", () => {
  it("each opens with the front matter changesets reads: one quoted package and its bump a line", async () => {
    const { readdir } = await import("node:fs/promises");
    const dir = resolve(REPO_ROOT, ".changeset");
    const files = (await readdir(dir)).filter((f) => f.endsWith(".md") && f !== "README.md");
    for (const file of files) {
      const text = await readFile(resolve(dir, file), "utf8");
      expect(text, file).toMatch(/^---\n("@resmon\/[a-z-]+": (patch|minor|major)\n)+---\n\n\S/);
    }
  });
});
