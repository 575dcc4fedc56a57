// Bundles the bin with everything it needs at run time: @resmon/mcp-contract, @resmon/api-client,
// the MCP SDK, zod and openapi-fetch, into one file, dist/resmon-mcp.cjs. The packed tarball
// therefore declares no dependencies, and `npx @resmon/mcp-server` installs one package. CommonJS,
// because on Node 20 an ES module entry starts ~7 ms later (node sets up its ES module loader first).
// The bench's floor server (tools/bench) is built here too, the same way (`--floor <entry> <out>`).
// Runs after `tsc` (which type-checks and emits dist/ for the workspace's own tests and the demo).
import { readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const outdir = fileURLToPath(new URL("./dist", import.meta.url));
const { version } = JSON.parse(await readFile(new URL("./package.json", import.meta.url), "utf8"));
// Earlier builds' split bundles (the bin before it was one file): leave no stale copy behind.
for (const old of ["./dist/chunks", "./dist/sdk-side.js", "./dist/resmon-mcp.js"])
  await rm(new URL(old, import.meta.url), { recursive: true, force: true });

const common = {
  bundle: true,
  platform: "node",
  target: "node20",
  // The chunks do not sit beside package.json, so the version is written in at build time.
  define: { __RESMON_PACKAGE_VERSION__: JSON.stringify(version) },
  legalComments: "eof",
  logLevel: "warning",
};

/**
 * What the SDK side would bundle and never run, left out (issue 31: memory): the SDK's Node shim,
 * whose default validator is Ajv (src/bin/sdk-shims.ts says why it is never built), and zod's 64
 * locales but English (zod configures English itself; nothing here picks another).
 */
const lean = {
  name: "lean",
  setup(b) {
    b.onResolve({ filter: /^@modelcontextprotocol\/server\/_shims$/ }, () => ({
      path: fileURLToPath(new URL("./src/bin/sdk-shims.ts", import.meta.url)),
    }));
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]/.test(args.importer)
        ? { path: join(args.resolveDir, "..", "locales", "index.js"), namespace: "zod-locales" }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "zod-locales" }, (args) => ({
      contents: 'export { default as en } from "./en.js";',
      resolveDir: dirname(args.path),
    }));
  },
};

const floor = process.argv.indexOf("--floor");
const [entry, outfile] =
  floor < 0
    ? [fileURLToPath(new URL("./src/bin/cli.ts", import.meta.url)), join(outdir, "resmon-mcp.cjs")]
    : [process.argv[floor + 1], process.argv[floor + 2]];
await build({
  ...common,
  plugins: [lean],
  entryPoints: [entry],
  outfile,
  format: "cjs",
  // version.ts reads package.json beside itself only unbundled; bundled, the define above answers.
  define: { ...common.define, "import.meta.url": "__resmonEntryUrl" },
  banner: {
    js: '"use strict";\nconst __resmonEntryUrl = require("node:url").pathToFileURL(__filename).href;',
  },
});

/**
 * ASCII only: V8 keeps a script's source in memory, one byte a character, or two for the whole file
 * if one character is not Latin-1: a dash or a quote in a comment of zod and the SDK kept the
 * chunks the bin was then split into (about 2 MB) as 4 MiB.
 * esbuild escapes strings and identifiers already (charset ascii); what is left is in comments,
 * where a backslash-u escape reads the same.
 */
const escapeNonAscii = (text) =>
  text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
const text = await readFile(outfile, "utf8");
const ascii = escapeNonAscii(text);
if (ascii !== text) await writeFile(outfile, ascii);
