/**
 * What the published artefacts say about where they come from, kept in step from one place:
 * `repository` in the three published package.json files, `mcpName` in the server's, the MCP
 * Registry's `packages/mcp-server/server.json` and the Claude Desktop bundle's
 * `packages/mcp-server/bundle/manifest.json` (their version is the package version).
 *
 * `tsx src/release-meta.ts --write` rewrites them (then formats them with biome); `--check` (in
 * `pnpm check`) fails when one is stale, or states a tool count or contract version (those are
 * filled in at pack time, so a new tool edits none of these files). `pnpm version-packages` runs `--write` after `changeset version`.
 */
import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { isDeepStrictEqual, promisify } from "node:util";
import { CONTRACT_VERSION, READ_TOOLS, WRITE_TOOLS } from "@resmon/mcp-contract";
import { formatWithBiome } from "./biome-format.js";
import { runIfMain } from "./run-main.js";

const _run = promisify(execFile);

/**
 * THE PROJECT'S REPOSITORY: not known when this was written. Change it here (owner and name on
 * GitHub), run `pnpm --filter @resmon/dev-scripts exec tsx src/release-meta.ts --write`, commit.
 * npm provenance and the MCP Registry both check it, so it must be right before the first publish.
 */
export const REPOSITORY = { owner: "ryanjosephkamp", name: "resmon-mcp" } as const;

export const REPOSITORY_URL = `https://github.com/${REPOSITORY.owner}/${REPOSITORY.name}`;
/** The MCP Registry's name: `io.github.<owner>/…` is what a GitHub login as that owner may publish. */
export const MCP_NAME = `io.github.${REPOSITORY.owner}/${REPOSITORY.name}`;
/** server.json's `$schema`: the registry's published schema this file follows (see registry-schema.ts). */
export const SERVER_SCHEMA_URL =
  "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

const REPO_ROOT = resolve(import.meta.dirname, "../..");
export const PUBLISHED_PACKAGES = [
  "packages/contract",
  "packages/api-client",
  "packages/mcp-server",
] as const;
export const SERVER_JSON = resolve(REPO_ROOT, "packages/mcp-server/server.json");
export const BUNDLE_MANIFEST = resolve(REPO_ROOT, "packages/mcp-server/bundle/manifest.json");

type Json = Record<string, unknown>;

async function readJson(path: string): Promise<Json> {
  return JSON.parse(await readFile(path, "utf8")) as Json;
}

/** A copy of `obj` with `key` set; a new key goes right after `after` (key order is what people read). */
export function withKey(obj: Json, key: string, value: unknown, after: string): Json {
  if (key in obj) return { ...obj, [key]: value };
  const out: Json = {};
  for (const [k, v] of Object.entries(obj)) {
    out[k] = v;
    if (k === after) out[key] = value;
  }
  if (!(key in out)) out[key] = value;
  return out;
}

function packageRepository(dir: string) {
  return { type: "git", url: `git+${REPOSITORY_URL}.git`, directory: dir };
}

/**
 * The surface figures the bundle states in prose, filled in when it is packed (bundle.ts), never
 * committed: the manifest says `{reads}`, `{writes}` and `{contract}`, so adding a tool edits no
 * release file (committed counts said "18 reads, 7 writes" after the scan tools made it 19 and 10).
 */
export const PACK_TIME_FIGURES = {
  "{reads}": () => String(READ_TOOLS.length),
  "{writes}": () => String(WRITE_TOOLS.length),
  "{contract}": () => CONTRACT_VERSION,
} as const;

export function withPackTimeFigures<T>(value: T): T {
  if (typeof value === "string") {
    let text: string = value;
    for (const [key, figure] of Object.entries(PACK_TIME_FIGURES)) text = text.replaceAll(key, figure());
    return text as T;
  }
  if (Array.isArray(value)) return value.map(withPackTimeFigures) as T;
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withPackTimeFigures(v)])) as T;
  return value;
}

/** A count or contract version written out where the figures above belong: every string that states one. */
export function statedFigures(value: unknown): string[] {
  if (typeof value === "string")
    return /\b\d+ (reads|writes|tools)\b|\bcontract \d+\.\d+/.test(value) ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(statedFigures);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(statedFigures);
  return [];
}

/** Every file this module keeps, with the JSON it should hold (given what it holds now). */
export async function expectedFiles(): Promise<Map<string, { now: Json; want: Json }>> {
  const files = new Map<string, { now: Json; want: Json }>();
  let version = "";
  for (const dir of PUBLISHED_PACKAGES) {
    const path = resolve(REPO_ROOT, dir, "package.json");
    const now = await readJson(path);
    let want = withKey(now, "repository", packageRepository(dir), "license");
    want = withKey(want, "homepage", `${REPOSITORY_URL}/tree/main/${dir}#readme`, "repository");
    if (dir === "packages/mcp-server") {
      want = withKey(want, "mcpName", MCP_NAME, "name");
      version = String(now.version);
    }
    files.set(path, { now, want });
  }

  const server = await readJson(SERVER_JSON);
  const packages = (Array.isArray(server.packages) ? server.packages : []) as Json[];
  files.set(SERVER_JSON, {
    now: server,
    want: {
      ...server,
      $schema: SERVER_SCHEMA_URL,
      name: MCP_NAME,
      version,
      repository: { url: REPOSITORY_URL, source: "github", subfolder: "packages/mcp-server" },
      packages: packages.map((p) => (p.registryType === "npm" ? { ...p, version } : p)),
    },
  });

  const manifest = await readJson(BUNDLE_MANIFEST);
  files.set(BUNDLE_MANIFEST, {
    now: manifest,
    want: {
      ...manifest,
      version,
      repository: { type: "git", url: REPOSITORY_URL },
      homepage: `${REPOSITORY_URL}/tree/main/packages/mcp-server#readme`,
      support: `${REPOSITORY_URL}/issues`,
    },
  });
  return files;
}

/** The files whose JSON differs from what they should hold. */
export async function staleFiles(): Promise<string[]> {
  const stale: string[] = [];
  for (const [path, { now, want }] of await expectedFiles()) {
    if (!isDeepStrictEqual(now, want)) stale.push(path);
  }
  return stale;
}

export async function writeFiles(): Promise<string[]> {
  const changed: string[] = [];
  for (const [path, { now, want }] of await expectedFiles()) {
    if (isDeepStrictEqual(now, want)) continue;
    await writeFile(path, `${JSON.stringify(want, null, 2)}\n`);
    changed.push(path);
  }
  await formatWithBiome(changed);
  return changed;
}

runIfMain(import.meta.url, "release-meta", async (argv) => {
  if (argv.includes("--write")) {
    const changed = await writeFiles();
    console.log(changed.length ? `rewrote ${changed.join(", ")}` : "release metadata already current");
    return 0;
  }
  const stale = await staleFiles();
  let code = 0;
  for (const path of [SERVER_JSON, BUNDLE_MANIFEST]) {
    for (const text of statedFigures(await readJson(path))) {
      console.error(
        `${path} states a count or contract version ("${text}"); write {reads}, {writes} or {contract} in the bundle manifest (filled in when it is packed), or nothing in server.json`,
      );
      code = 1;
    }
  }
  if (stale.length === 0) return code;
  console.error(
    `stale release metadata (repository, mcpName, versions) in ${stale.join(", ")}: run ` +
      "`pnpm --filter @resmon/dev-scripts exec tsx src/release-meta.ts --write`",
  );
  return 1;
});
