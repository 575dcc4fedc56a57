// Bundles the bin with everything it needs at run time: @resmon/mcp-contract, @resmon/api-client,
// the MCP SDK, zod, undici and openapi-fetch. The packed tarball therefore declares no dependencies,
// and `npx @resmon/mcp-server` installs one package. Two bundles:
// - dist/resmon-mcp.cjs, the bin: the start-up front alone (cli.ts and what it imports statically),
//   as CommonJS, because on Node 20 an ES module entry starts ~7 ms later (node sets up its ES module
//   loader first) and the front answers initialize and tools/list before anything else loads;
// - dist/sdk-side.js, an ES module, and dist/chunks/ (code splitting): the SDK path and the doctor,
//   which the bin loads with import() when the session needs them.
// The two share no state: the front reads no token, and the SDK side scrubs every frame it writes.
// Runs after `tsc` (which type-checks and emits dist/ for the workspace's own tests and the demo).
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const outdir = fileURLToPath(new URL("./dist", import.meta.url));
const { version } = JSON.parse(await readFile(new URL("./package.json", import.meta.url), "utf8"));
// Chunk names carry a content hash: clear the last build's so no stale chunk is packed.
await rm(new URL("./dist/chunks", import.meta.url), { recursive: true, force: true });

// The bin was dist/resmon-mcp.js (an ES module) before it was CommonJS: leave no stale copy behind.
await rm(new URL("./dist/resmon-mcp.js", import.meta.url), { force: true });

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

await build({
  ...common,
  plugins: [lean],
  entryPoints: { "sdk-side": fileURLToPath(new URL("./src/bin/sdk-side.ts", import.meta.url)) },
  outdir,
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  format: "esm",
  // Bundled CommonJS (undici) calls require() for Node built-ins; give the ES module one.
  banner: {
    js: 'import { createRequire as __resmonCreateRequire } from "node:module";\nconst require = __resmonCreateRequire(import.meta.url);',
  },
});

await build({
  ...common,
  entryPoints: { "resmon-mcp": fileURLToPath(new URL("./src/bin/cli.ts", import.meta.url)) },
  outdir,
  outExtension: { ".js": ".cjs" },
  format: "cjs",
  // cli.ts finds sdk-side.js beside itself from import.meta.url, which CommonJS spells __filename.
  define: { ...common.define, "import.meta.url": "__resmonEntryUrl" },
  banner: {
    js: '"use strict";\nconst __resmonEntryUrl = require("node:url").pathToFileURL(__filename).href;',
  },
});

/**
 * ASCII only: V8 keeps a script's source in memory, one byte a character, or two for the whole file
 * if one character is not Latin-1: a dash or a quote in a comment of zod, the SDK and undici kept
 * their three chunks (about 2 MB) as 4 MiB.
 * esbuild escapes strings and identifiers already (charset ascii); what is left is in comments,
 * where a backslash-u escape reads the same.
 */
const escapeNonAscii = (text) =>
  text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
const outputs = [
  join(outdir, "resmon-mcp.cjs"),
  join(outdir, "sdk-side.js"),
  ...(await readdir(join(outdir, "chunks"))).map((name) => join(outdir, "chunks", name)),
];
for (const file of outputs) {
  const text = await readFile(file, "utf8");
  const ascii = escapeNonAscii(text);
  if (ascii !== text) await writeFile(file, ascii);
}
