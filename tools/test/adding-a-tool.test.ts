/**
 * ADDING A TOOL, AS docs/adding-a-tool.md SAYS — a slow test, run by `pnpm test:doc` (not `pnpm test`;
 * its own step of .ci/run) (copies of the repository, built and
 * tested; minutes on a loaded 2-core machine). It takes the doc as it stands, twice: the four files
 * its sections name for a tool on a route in use (`count_matches`), and the five of its new-route
 * part (`active_runs`, with the stand-in's route), with the code shown in them, and each part's
 * "Then" commands, run one by one in a fresh copy of this checkout. It fails if a command fails, or if
 * anything beyond those files needed a hand (every other changed file must be one the commands
 * wrote). The copy installs nothing: its node_modules folders are copies of this checkout's links
 * (pnpm's store, .pnpm, is linked whole), and turbo shares this checkout's cache.
 */
import { execFileSync, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { CONTRACT_VERSION, ROUTES } from "@resmon/mcp-contract";
import { DECLARED_ROUTES } from "@resmon/testkit";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../src/pack-snippets.js";
import { baselines } from "../src/versioning.js";

const DOC = readFileSync(join(REPO_ROOT, "docs", "adding-a-tool.md"), "utf8");
const HAVE_GIT = spawnSync("git", ["-C", REPO_ROOT, "rev-parse", "--git-dir"]).status === 0;
const NEW_ROUTE_HEADING = /^## A tool on a route no tool uses yet$/m;

/** The doc's two cases: sections 1–4 with their Then (a route in use), and the new-route part. */
export function docParts(doc: string): { existing: string; newRoute: string } {
  const at = doc.search(NEW_ROUTE_HEADING);
  if (at < 0) return { existing: doc, newRoute: "" };
  const rest = doc.slice(at);
  const next = rest.slice(3).search(/^## /m);
  return { existing: doc.slice(0, at), newRoute: next < 0 ? rest : rest.slice(0, next + 3) };
}

/** Each numbered section's file (the path in its heading) and the first code block under it. */
export function docFiles(part: string, level = "##"): { path: string; text: string }[] {
  const sections = part.split(new RegExp(`^${level} `, "m")).slice(1);
  const files: { path: string; text: string }[] = [];
  for (const section of sections) {
    const heading = /^\d+\.[^`\n]*`([^`]+)`/.exec(section);
    const block = /```[a-z]*\n([\s\S]*?)```/.exec(section);
    if (heading?.[1] && block?.[1]) files.push({ path: heading[1], text: block[1] });
  }
  return files;
}

/** The "Then" block's commands, without their comments. */
export function docCommands(part: string): string[] {
  const then = part.split(/^#{2,3} Then$/m)[1] ?? "";
  const block = /```sh\n([\s\S]*?)```/.exec(then)?.[1] ?? "";
  return block
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => line.length > 0);
}

const parts = docParts(DOC);
const NEWEST_BASELINE = (await baselines())[0]?.contract_version;
const nameOf = (files: { text: string }[]) => /export const (\w+)\b/.exec(files[0]?.text ?? "")?.[1] ?? "";

/** This checkout's files as git sees them (tracked and untracked, not ignored), for the copy. */
function checkoutFiles(): string[] {
  const out = execFileSync("git", ["-C", REPO_ROOT, "ls-files", "-z", "-co", "--exclude-standard"]);
  return out
    .toString("utf8")
    .split("\0")
    .filter((f) => f.length > 0 && existsSync(join(REPO_ROOT, f)));
}

/** Every file under `root` (no node_modules, no .turbo, no .test-results) with its content. */
function snapshot(root: string): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (["node_modules", ".turbo", ".test-results", "dist", ".git"].includes(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) found.set(path.slice(root.length + 1), readFileSync(path, "utf8"));
    }
  };
  walk(root);
  return found;
}

const work = mkdtempSync(join(tmpdir(), "resmon-adding-a-tool-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A copy of this checkout beside ../shared (when there is one), with its node_modules links. */
function copyCheckout(work: string): string {
  const root = join(work, "main");
  for (const file of checkoutFiles()) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    cpSync(join(REPO_ROOT, file), join(root, file));
  }
  const shared = resolve(REPO_ROOT, "..", "shared");
  if (existsSync(shared)) symlinkSync(shared, join(work, "shared"));
  // pnpm refuses a root node_modules that is a link: a directory of this checkout's links, and
  // its store (.pnpm, nearly all the bytes) linked.
  const rootModules = join(REPO_ROOT, "node_modules");
  mkdirSync(join(root, "node_modules"));
  for (const entry of readdirSync(rootModules)) {
    const from = join(rootModules, entry);
    const to = join(root, "node_modules", entry);
    if (entry === ".pnpm") symlinkSync(from, to);
    else cpSync(from, to, { recursive: true, verbatimSymlinks: true });
  }
  for (const dir of ["tools", ...readdirSync(join(REPO_ROOT, "packages")).map((p) => `packages/${p}`)]) {
    const modules = join(REPO_ROOT, dir, "node_modules");
    // Only links (pnpm's), so each resolves inside the copy: the workspace packages are the copy's.
    if (existsSync(modules) && statSync(modules).isDirectory())
      cpSync(modules, join(root, dir, "node_modules"), { recursive: true, verbatimSymlinks: true });
  }
  return root;
}

/**
 * Writes a part's files into a fresh copy (and the once-a-release version edit), runs its
 * commands one by one, and answers what was edited by hand and what the commands wrote.
 */
function followThePart(
  part: string,
  level: string,
  label: string,
): { edited: Set<string>; regenerated: string[] } {
  const files = docFiles(part, level);
  const name = nameOf(files);
  const withName = (text: string) => text.replaceAll("<name>", name);
  const root = copyCheckout(join(work, label));

  // The files, as the doc shows them.
  const edited = new Set<string>();
  for (const f of files) {
    const path = withName(f.path);
    expect(existsSync(join(root, path)), `${path} is new`).toBe(false);
    writeFileSync(join(root, path), f.text);
    edited.add(path);
  }
  // The once-a-release edit the doc names: the contract moves a minor past its newest baseline.
  if (NEWEST_BASELINE === CONTRACT_VERSION) {
    const [major, minor] = CONTRACT_VERSION.split(".").map(Number);
    const path = "packages/contract/src/version.ts";
    const text = readFileSync(join(root, path), "utf8");
    writeFileSync(
      join(root, path),
      text.replace(
        `CONTRACT_VERSION = "${CONTRACT_VERSION}"`,
        `CONTRACT_VERSION = "${major}.${(minor ?? 0) + 1}"`,
      ),
    );
    edited.add(path);
  }
  const handEdited = snapshot(root);

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TURBO_CACHE_DIR: turboCache(),
    TURBO_TELEMETRY_DISABLED: "1",
  };
  delete env.VITEST;
  delete env.VITEST_WORKER_ID;
  delete env.VITEST_POOL_ID;
  for (const command of docCommands(part).map(withName)) {
    const run = spawnSync("bash", ["-euo", "pipefail", "-c", command], {
      cwd: root,
      env,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    const tail = `${run.stdout}\n${run.stderr}`.split("\n").slice(-40).join("\n");
    expect(run.status, `\`${command}\` in the copy:\n${tail}`).toBe(0);
  }

  // Everything else that changed, the commands wrote: the table's derived files among them.
  const after = snapshot(root);
  const regenerated = [...after.keys()].filter((f) => after.get(f) !== handEdited.get(f)).sort();
  console.log(
    `${label}: edited by hand: ${[...edited].join(", ")}\nwritten by the commands: ${regenerated.join(", ")}`,
  );
  rmSync(root, { recursive: true, force: true });
  return { edited, regenerated };
}

describe.runIf(HAVE_GIT)(
  "adding a tool, exactly as docs/adding-a-tool.md says (a copy of the repo; slow)",
  () => {
    const existing = docFiles(parts.existing);
    const newRoute = docFiles(parts.newRoute, "###");

    it("the doc names four files for a route in use, five for a new one, and the commands", () => {
      const name = nameOf(existing);
      expect(existing.map((f) => f.path.replaceAll("<name>", name))).toEqual([
        `packages/contract/src/tools/${name}.ts`,
        `packages/mcp-server/src/handlers/${name}.ts`,
        `packages/mcp-server/test/${name}.test.ts`,
        `.changeset/${name}.md`,
      ]);
      expect(name).toBe("count_matches");
      const other = nameOf(newRoute);
      expect(newRoute.slice(0, 4).map((f) => f.path.replaceAll("<name>", other))).toEqual([
        `packages/contract/src/tools/${other}.ts`,
        `packages/mcp-server/src/handlers/${other}.ts`,
        `packages/mcp-server/test/${other}.test.ts`,
        `.changeset/${other}.md`,
      ]);
      expect(newRoute[4]?.path).toMatch(/^packages\/testkit\/src\/routes\/[a-z_]+\.ts$/);
      expect(newRoute).toHaveLength(5);
      expect(docCommands(parts.existing).length).toBeGreaterThan(3);
      expect(docCommands(parts.newRoute).length).toBeGreaterThan(3);
    });

    it("the new-route example reaches a route no tool uses and the stand-in does not serve", () => {
      const routes = [...(newRoute[0]?.text ?? "").matchAll(/method: "(\w+)", path: "([^"]+)"/g)].map(
        (m) => `${m[1]} ${m[2]}`,
      );
      expect(routes.length).toBeGreaterThan(0);
      const used = new Set(ROUTES.map((r) => `${r.method} ${r.path}`));
      const served = new Set(DECLARED_ROUTES.map((r) => `${r.method} ${r.path}`));
      for (const route of routes) {
        expect(used.has(route), `${route} is used by a tool already`).toBe(false);
        expect(served.has(route), `${route} is served by the stand-in already`).toBe(false);
      }
    });

    it("a route in use: four hand-edited files (and the version, once a release), then every command passes", {
      timeout: 900_000,
    }, () => {
      const { edited, regenerated } = followThePart(parts.existing, "##", "existing");
      expect(regenerated).toContain("contract/contract.json");
      expect(regenerated).toContain("contract/tools.json");
      expect(edited.size).toBeLessThanOrEqual(5);
    });

    it("a new route: five hand-edited files (and the version, once a release), then every command passes", {
      timeout: 900_000,
    }, () => {
      const { edited, regenerated } = followThePart(parts.newRoute, "###", "new-route");
      expect(regenerated).toContain("contract/contract.json");
      expect(regenerated).toContain("packages/testkit/src/generated/routes.ts");
      expect(edited.size).toBeLessThanOrEqual(6);
    });
  },
);

/** This checkout's turbo cache (a git worktree shares its main checkout's), so the copy's build reuses it. */
function turboCache(): string {
  const common = execFileSync("git", [
    "-C",
    REPO_ROOT,
    "rev-parse",
    "--path-format=absolute",
    "--git-common-dir",
  ])
    .toString()
    .trim();
  const shared = join(dirname(common), ".turbo", "cache");
  return existsSync(shared) ? shared : join(REPO_ROOT, ".turbo", "cache");
}
