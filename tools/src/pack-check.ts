/**
 * `pnpm pack:check`: the three publishable packages and the Claude Desktop bundle as a stranger gets them.
 *
 * 1. `pnpm pack` each of @resmon/mcp-contract, @resmon/api-client, @resmon/mcp-server.
 * 2. publint on all three tarballs; are-the-types-wrong (esm-only profile) on the two libraries.
 * 3. The server tarball installed with npm into an empty directory: it must bring no dependencies.
 * 4. The MCP Inspector CLI starts it with `npx resmon-mcp` against a testkit: tools/list answers
 *    every tool of the contract (only the reads, read-only) and a health call answers; `npx resmon-mcp doctor`.
 * 5. Every harness snippet in the server README, read as its harness reads it and started as
 *    written (see pack-snippets.ts); the Claude Code ones through `claude mcp add` / `.mcp.json`
 *    and `claude mcp list`, the Codex ones through `codex mcp get --json`, each in its own HOME.
 * 6. The .mcpb bundle (bundle.ts): `mcpb validate`, `mcpb pack`, `mcpb unpack`, then started as
 *    Claude Desktop starts it (mcpb's own getMcpConfigForManifest) with three sets of settings.
 * 7. A cold start: an empty npm cache, `npx -y --package <tarball> resmon-mcp`, from spawn until
 *    tools/list answered; compared with the Codex snippet's startup_timeout_sec.
 *
 * Each check is a module of pack-check/ (pack, lint, install, inspector and doctor, snippets, bundle,
 * cold-start); this file only orders them. The npm CLIs are pinned in npm-tools.ts and installed
 * once into a cache directory (pack-check/clis.ts). Independent steps run side by side (2 cores in
 * CI). Exit 0 only when every check passed. Needs `pnpm build`.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startTestkit, type Testkit } from "@resmon/testkit";
import { bundle } from "./pack-check/bundle.js";
import { installTools } from "./pack-check/clis.js";
import { coldStarts } from "./pack-check/cold-start.js";
import { doctor } from "./pack-check/doctor.js";
import type { Where } from "./pack-check/fill.js";
import { inspector } from "./pack-check/inspector.js";
import { installServer } from "./pack-check/install.js";
import { lintTarballs } from "./pack-check/lint.js";
import { packAll } from "./pack-check/pack.js";
import { outcomes, say } from "./pack-check/report.js";
import { snippets } from "./pack-check/snippets.js";
import { SERVER_DIR } from "./pack-snippets.js";

export async function main(): Promise<number> {
  if (!existsSync(join(SERVER_DIR, "dist", "resmon-mcp.cjs"))) {
    say("packages/mcp-server/dist/resmon-mcp.cjs is missing: run `pnpm build` first.");
    return 2;
  }
  const started = performance.now();
  const work = await mkdtemp(join(tmpdir(), "resmon-pack-check-"));
  const home = join(work, "home");
  // The packaged app's default state directory on Linux and macOS-like layouts under this HOME.
  const stateDir = join(home, ".local", "state", "resmon");
  let kit: Testkit | undefined;
  try {
    for (const d of ["tarballs", "app", stateDir]) await mkdir(resolve(work, d), { recursive: true });
    const [tarballs, tools] = await Promise.all([packAll(join(work, "tarballs")), installTools()]);
    const serverTgz = tarballs.get("packages/mcp-server");
    const app = join(work, "app");
    const [, installed] = await Promise.all([
      tools ? lintTarballs(tools, tarballs) : undefined,
      serverTgz ? installServer(app, serverTgz) : false,
    ]);
    if (serverTgz && installed) {
      kit = await startTestkit({ stateDir, seed: "small" });
      const running = kit;
      const where: Where = { kit: running, app, tarball: serverTgz };
      const [, , codexTimeout] = await Promise.all([
        tools ? inspector(tools, app, running) : undefined,
        doctor(app, home, running),
        snippets(work, where, running, tools),
        tools ? bundle(tools, work, running) : undefined,
      ]);
      await coldStarts(work, serverTgz, app, running, codexTimeout);
    }
  } finally {
    await kit?.stop();
    await rm(work, { recursive: true, force: true });
  }
  const failed = outcomes.filter((o) => !o.ok);
  say(
    `\npack:check: ${outcomes.length - failed.length} passed, ${failed.length} failed (${((performance.now() - started) / 1000).toFixed(0)} s)`,
  );
  for (const f of failed) say(`  failed: ${f.name}`);
  return failed.length === 0 && outcomes.length > 0 ? 0 : 1;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename ?? "")) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      say(`pack:check could not run: ${error instanceof Error ? error.message : "error"}`);
      process.exit(1);
    },
  );
}
