// The Claude Desktop bundle's entry point (manifest.json `server.entry_point`). The host fills the
// manifest's env from the user's settings: a field left empty arrives either as "" or as its
// unreplaced `${user_config.…}` placeholder, and the read-only checkbox as "true" or "false". The
// server reads neither form, so they are translated here, then the bundled bin (copied beside this
// file by tools/src/bundle.ts) starts as `npx` would start it.
const UNSET = /^\$\{user_config\.[^}]*\}$/;

for (const [name, value] of Object.entries(process.env)) {
  if (name.startsWith("RESMON_") && (value === "" || UNSET.test(value ?? ""))) delete process.env[name];
}
if (process.env.RESMON_MCP_READ_ONLY === "true") process.env.RESMON_MCP_READ_ONLY = "1";
else if (process.env.RESMON_MCP_READ_ONLY === "false") delete process.env.RESMON_MCP_READ_ONLY;

await import("./resmon-mcp.cjs");
