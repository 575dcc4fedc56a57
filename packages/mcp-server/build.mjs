// Bundles the bin, dist/resmon-mcp.js, with everything it needs at run time: @resmon/mcp-contract,
// @resmon/api-client, the MCP SDK, zod, undici and openapi-fetch. The packed tarball therefore
// declares no dependencies, and `npx @resmon/mcp-server` installs one package.
// Code splitting puts what cli.ts imports dynamically (the SDK path, the doctor) in dist/chunks/, so
// a cold start compiles only the start-up front before it answers initialize and tools/list.
// Runs after `tsc` (which type-checks and emits dist/ for the workspace's own tests and the demo).
import { readFile, rm } from "node:fs/promises";
import { build } from "esbuild";

const outdir = new URL("./dist", import.meta.url).pathname;
const { version } = JSON.parse(await readFile(new URL("./package.json", import.meta.url), "utf8"));
// Chunk names carry a content hash: clear the last build's so no stale chunk is packed.
await rm(new URL("./dist/chunks", import.meta.url), { recursive: true, force: true });

await build({
  entryPoints: { "resmon-mcp": new URL("./src/bin/cli.ts", import.meta.url).pathname },
  outdir,
  splitting: true,
  // The chunks do not sit beside package.json, so the version is written in at build time.
  define: { __RESMON_PACKAGE_VERSION__: JSON.stringify(version) },
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  // Bundled CommonJS (undici) calls require() for Node built-ins; give the ES module one.
  banner: {
    js: 'import { createRequire as __resmonCreateRequire } from "node:module";\nconst require = __resmonCreateRequire(import.meta.url);',
  },
  legalComments: "eof",
  logLevel: "warning",
});
