/**
 * The api-client as another project uses it (issue 32 point 3): `pnpm pack` in packages/api-client
 * writes the tarball each release attaches; `npm install <tarball>` puts it in an empty project
 * outside this workspace (its dependencies from npm, or npm's cache when it has them); `tsc` (strict,
 * nodenext) type-checks the README's first example there, and the compiled example runs against the
 * stand-in, found by discovery. A path resmon does not serve does not compile, and the error names it.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { serverEnv, startTestkit, type Testkit } from "@resmon/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../src/pack-snippets.js";

const run = promisify(execFile);
const CLIENT_DIR = join(REPO_ROOT, "packages", "api-client");
const README = join(CLIENT_DIR, "README.md");
const TSC = join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");
const HAVE_DIST = await readdir(join(CLIENT_DIR, "dist")).then(
  () => true,
  () => false,
);

/** The README's first TypeScript example: what a newcomer copies first. */
async function firstExample(): Promise<string> {
  const text = await readFile(README, "utf8");
  const code = /```ts\n([\s\S]*?)```/.exec(text)?.[1];
  if (!code) throw new Error("the api-client README shows no ts example");
  return code;
}

const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    skipLibCheck: false,
    types: ["node"],
    outDir: "out",
  },
  include: ["*.ts"],
};

let work = "";
let app = "";
let kit: Testkit;
let tarball = "";

beforeAll(async () => {
  if (!HAVE_DIST) return;
  work = await mkdtemp(join(tmpdir(), "resmon-api-client-outside-"));
  app = join(work, "app");
  await mkdir(app);
  const { stdout } = await run("pnpm", ["pack", "--pack-destination", work], { cwd: CLIENT_DIR });
  tarball = join(work, (await readdir(work)).find((f) => f.endsWith(".tgz")) ?? "");
  expect(stdout).toContain(".tgz");
  await writeFile(join(app, "package.json"), '{ "name": "an-app", "private": true, "type": "module" }\n');
  // The command the README gives, in a directory no workspace is above.
  await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", tarball], {
    cwd: app,
    timeout: 240_000,
  });
  // Node's types from this checkout (the app would have its own @types/node); the client's own come
  // with the tarball.
  await mkdir(join(app, "node_modules", "@types"), { recursive: true });
  await symlink(
    join(REPO_ROOT, "node_modules", "@types", "node"),
    join(app, "node_modules", "@types", "node"),
  );
  await writeFile(join(app, "tsconfig.json"), JSON.stringify(TSCONFIG, null, 2));
  kit = await startTestkit({ stateDir: join(work, "state") });
}, 300_000);

afterAll(async () => {
  await kit?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe.skipIf(!HAVE_DIST)(
  "the api-client installed from its tarball, outside the workspace",
  { timeout: 120_000 },
  () => {
    it("is installed where the app is, not linked from the workspace", async () => {
      const manifest = JSON.parse(await readFile(join(app, "package.json"), "utf8")) as {
        dependencies: Record<string, string>;
      };
      expect(manifest.dependencies["@resmon/api-client"]).toMatch(
        /^file:.*resmon-api-client-\d+\.\d+\.\d+\.tgz$/,
      );
      const installed = JSON.parse(
        await readFile(join(app, "node_modules", "@resmon", "api-client", "package.json"), "utf8"),
      ) as { version: string };
      const own = JSON.parse(await readFile(join(CLIENT_DIR, "package.json"), "utf8")) as { version: string };
      expect(installed.version).toBe(own.version);
    });

    it("type-checks the README's first example (strict, nodenext) and runs it against the stand-in", async () => {
      await writeFile(join(app, "example.ts"), await firstExample());
      await run("node", [TSC, "-p", app], { cwd: app });
      const { stdout, stderr } = await run("node", [join(app, "out", "example.js")], {
        cwd: app,
        env: serverEnv(kit),
      });
      expect(stderr).toBe("");
      // The example prints each routine's id, name and schedule: the stand-in's demo routines.
      const lines = stdout.trim().split("\n");
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(line).toMatch(/^\d+ \S.* \S+/);
    });

    it("a path resmon does not serve does not compile, and the error names it", async () => {
      await writeFile(
        join(app, "example.ts"),
        [
          'import { createResmonClient } from "@resmon/api-client";',
          'const client = createResmonClient({ port: 1, token: "t".repeat(43) });',
          'await client.GET("/api/routinez");',
          "",
        ].join("\n"),
      );
      const failed = await run("node", [TSC, "-p", app], { cwd: app }).then(
        () => undefined,
        (error: { stdout?: string }) => error.stdout ?? "",
      );
      expect(failed, "tsc accepted a path resmon does not serve").toBeDefined();
      expect(failed).toContain("/api/routinez");
    });
  },
);
