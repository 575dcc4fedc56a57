// Bundles the bin into one file, dist/resmon-mcp.js, that carries everything it needs at run time:
// @resmon/mcp-contract, @resmon/api-client, the MCP SDK, zod, undici and openapi-fetch. The packed
// tarball therefore declares no dependencies, and `npx @resmon/mcp-server` installs one package.
// Runs after `tsc` (which type-checks and emits dist/ for the workspace's own tests and the demo).
import { build } from "esbuild";

const outfile = new URL("./dist/resmon-mcp.js", import.meta.url).pathname;

await build({
  entryPoints: [new URL("./src/cli.ts", import.meta.url).pathname],
  outfile,
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
