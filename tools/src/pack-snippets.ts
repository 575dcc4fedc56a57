/**
 * The harness snippets in packages/mcp-server/README.md, read as each harness reads them: the JSON
 * parsed, the TOML parsed (by Python's tomllib, the one TOML reader at hand), the command lines
 * split as a shell splits them. Each becomes the command, arguments and environment a harness
 * would start. Used by tools/test/pack-snippets.test.ts (static checks) and pack-check (runs them).
 */
import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const SERVER_DIR = resolve(REPO_ROOT, "packages/mcp-server");
export const SERVER_README = resolve(SERVER_DIR, "README.md");

/** The variables a snippet may set: each names which resmon, where its token is, or a server switch. */
export const KNOWN_VARIABLES = [
  "RESMON_PORT",
  "RESMON_PORT_FILE",
  "RESMON_DB_PATH",
  "RESMON_STATE_DIR",
  "RESMON_MCP_READ_ONLY",
  "RESMON_MCP_TIMEOUT_MS",
] as const;

export interface Snippet {
  name: string;
  lang: string;
  text: string;
}

export interface Launch {
  snippet: string;
  /** The server's name in the harness's config (the Claude CLI's `<name>`; `resmon` for a shell line). */
  server: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Codex's startup_timeout_sec, when the snippet sets one. */
  startupTimeoutSec?: number;
}

const MARKER = /<!-- snippet: ([a-z0-9-]+) -->\n```([a-z]+)\n([\s\S]*?)\n```/g;

/** Every fenced block right after a `<!-- snippet: NAME -->` line. */
export function extractSnippets(markdown: string): Snippet[] {
  return [...markdown.matchAll(MARKER)].map((m) => ({
    name: m[1] ?? "",
    lang: m[2] ?? "",
    text: m[3] ?? "",
  }));
}

export async function readServerSnippets(): Promise<Snippet[]> {
  return extractSnippets(await readFile(SERVER_README, "utf8"));
}

/** POSIX-shell word splitting for what the snippets use: quotes, backslash-newline, whitespace. */
export function shellWords(text: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? "";
    if (quote) {
      if (c === quote) quote = null;
      else if (c === "\\" && quote === '"' && i + 1 < text.length) word += text[++i] ?? "";
      else word += c;
      continue;
    }
    if (c === "\\" && text[i + 1] === "\n") {
      i++;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      word ??= "";
      continue;
    }
    if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
      continue;
    }
    if (c === "\\" && i + 1 < text.length) {
      word = (word ?? "") + (text[++i] ?? "");
      continue;
    }
    word = (word ?? "") + c;
  }
  if (quote) throw new Error("unterminated quote");
  if (word !== null) words.push(word);
  return words;
}

function splitAssignment(word: string): [string, string] {
  const eq = word.indexOf("=");
  if (eq <= 0) throw new Error(`not NAME=value: ${word}`);
  return [word.slice(0, eq), word.slice(eq + 1)];
}

/** `claude mcp add [options] <name> -- <command> [args...]`, options --env/-e K=V and --scope/-s. */
export function launchFromClaudeCli(snippet: string, text: string): Launch {
  const words = shellWords(text);
  if (words.slice(0, 3).join(" ") !== "claude mcp add") throw new Error("not a `claude mcp add` line");
  const dashes = words.indexOf("--");
  if (dashes < 0) throw new Error("no `--` before the command");
  const env: Record<string, string> = {};
  const names: string[] = [];
  const opts = words.slice(3, dashes);
  for (let i = 0; i < opts.length; i++) {
    const w = opts[i] ?? "";
    if (w === "--env" || w === "-e") {
      const [k, v] = splitAssignment(opts[++i] ?? "");
      env[k] = v;
    } else if (w === "--scope" || w === "-s" || w === "--transport" || w === "-t") {
      i++;
    } else if (w.startsWith("-")) {
      throw new Error(`unknown option ${w}`);
    } else names.push(w);
  }
  if (names.length !== 1 || names[0] !== "resmon")
    throw new Error(`server name should be resmon, got ${names}`);
  const [command, ...args] = words.slice(dashes + 1);
  if (!command) throw new Error("no command after `--`");
  return { snippet, server: "resmon", command, args, env };
}

/** `NAME=value ... command args...`, as a shell runs it. */
export function launchFromShell(snippet: string, text: string): Launch {
  const words = shellWords(text);
  const env: Record<string, string> = {};
  while (words[0] && /^[A-Z_][A-Z0-9_]*=/.test(words[0])) {
    const [k, v] = splitAssignment(words.shift() ?? "");
    env[k] = v;
  }
  const [command, ...args] = words;
  if (!command) throw new Error("no command");
  return { snippet, server: "resmon", command, args, env };
}

function stringRecord(value: unknown, where: string): Record<string, string> {
  if (value === undefined) return {};
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new Error(`${where} is not a table`);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== "string") throw new Error(`${where}.${k} is not a string`);
    out[k] = v;
  }
  return out;
}

/** Who reads a snippet, told by its name's first word(s); each reads its own format. */
export const HARNESSES = [
  "claude-cli",
  "claude-mcp-json",
  "codex",
  "cursor",
  "vscode",
  "claude-desktop",
  "windsurf",
  "zed",
  "shell",
] as const;
export type Harness = (typeof HARNESSES)[number];

export function harnessOf(snippetName: string): Harness {
  const found = [...HARNESSES]
    .sort((a, b) => b.length - a.length)
    .find((h) => snippetName === h || snippetName.startsWith(`${h}-`));
  if (!found) throw new Error(`${snippetName}: no harness reads a snippet of this name`);
  return found;
}

export interface EntryRules {
  /** VS Code requires `"type": "stdio"`; the others take it or leave it. */
  typeRequired: boolean;
  /** Zed's `args` has no default. */
  argsRequired: boolean;
}

const LOOSE: EntryRules = { typeRequired: false, argsRequired: false };

export function launchFromEntry(
  snippet: string,
  server: string,
  entry: unknown,
  where: string,
  rules: EntryRules = LOOSE,
): Launch {
  if (entry === null || typeof entry !== "object" || Array.isArray(entry))
    throw new Error(`${where} missing`);
  const e = entry as Record<string, unknown>;
  if (typeof e.command !== "string") throw new Error(`${where}.command is not a string`);
  if (e.args === undefined && rules.argsRequired) throw new Error(`${where}.args is missing`);
  const args = e.args ?? [];
  if (!Array.isArray(args) || !args.every((a) => typeof a === "string"))
    throw new Error(`${where}.args is not a list of strings`);
  const launch: Launch = {
    snippet,
    server,
    command: e.command,
    args: args as string[],
    env: stringRecord(e.env, `${where}.env`),
  };
  if (e.startup_timeout_sec !== undefined) {
    if (typeof e.startup_timeout_sec !== "number")
      throw new Error(`${where}.startup_timeout_sec is not a number`);
    launch.startupTimeoutSec = e.startup_timeout_sec;
  }
  if (e.type === undefined && rules.typeRequired)
    throw new Error(`${where}.type is missing (it must be "stdio")`);
  if (e.type !== undefined && e.type !== "stdio") throw new Error(`${where}.type is not stdio`);
  return launch;
}

/** Every entry of a `{<key>: {name: entry}}` document; at least one, each named resmon or resmon-… */
function launchesFromTable(snippet: string, doc: unknown, key: string, rules: EntryRules): Launch[] {
  const table = (doc as Record<string, unknown> | null)?.[key];
  if (table === null || typeof table !== "object" || Array.isArray(table) || Object.keys(table).length === 0)
    throw new Error(`${snippet}: no \`${key}\` table`);
  return Object.entries(table).map(([server, entry]) => {
    if (!/^resmon(-[a-z-]+)?$/.test(server))
      throw new Error(`${snippet}: server name ${server} is not resmon or resmon-…`);
    return launchFromEntry(snippet, server, entry, `${key}.${server}`, rules);
  });
}

/**
 * `.mcp.json`, `.cursor/mcp.json`, `claude_desktop_config.json`, Windsurf's `mcp_config.json`:
 * `{"mcpServers": {"resmon": {command, args, env}}}`.
 */
export function launchesFromMcpJson(snippet: string, text: string): Launch[] {
  return launchesFromTable(snippet, JSON.parse(text), "mcpServers", LOOSE);
}

/** VS Code's `.vscode/mcp.json`: a top-level `servers`, each with `"type": "stdio"`. (JSON is JSONC.) */
export function launchesFromVscodeJson(snippet: string, text: string): Launch[] {
  const doc = JSON.parse(text) as Record<string, unknown>;
  if ("mcpServers" in doc) throw new Error(`${snippet}: VS Code reads \`servers\`, not \`mcpServers\``);
  return launchesFromTable(snippet, doc, "servers", { typeRequired: true, argsRequired: false });
}

/** Zed's settings.json: `context_servers`, each `{command, args, env}` (args required). (JSON is JSONC.) */
export function launchesFromZedJson(snippet: string, text: string): Launch[] {
  return launchesFromTable(snippet, JSON.parse(text), "context_servers", {
    typeRequired: false,
    argsRequired: true,
  });
}

/** Python's tomllib, when python3 (3.11+) is present; undefined otherwise. */
export async function parseToml(text: string): Promise<unknown> {
  const code = "import json,sys,tomllib; print(json.dumps(tomllib.loads(sys.stdin.read())))";
  return new Promise((resolvePromise, reject) => {
    const child = execFile("python3", ["-c", code], { timeout: 20_000 }, (error, stdout, stderr) => {
      if (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return resolvePromise(undefined);
        return reject(new Error(`TOML did not parse: ${stderr.trim().split("\n").at(-1) ?? error.message}`));
      }
      resolvePromise(JSON.parse(stdout) as unknown);
    });
    child.stdin?.end(text);
  });
}

export async function hasTomllib(): Promise<boolean> {
  try {
    await run("python3", ["-c", "import tomllib"], { timeout: 20_000 });
    return true;
  } catch {
    return false;
  }
}

/** Codex's `[mcp_servers.resmon]`. Undefined when no TOML reader is at hand. */
export async function launchesFromCodexToml(snippet: string, text: string): Promise<Launch[] | undefined> {
  const doc = await parseToml(text);
  if (doc === undefined) return undefined;
  return launchesFromTable(snippet, doc, "mcp_servers", LOOSE);
}

/** Every launch a snippet makes, read as its harness reads it; undefined only for TOML without tomllib. */
export async function launchesOf(s: Snippet): Promise<Launch[] | undefined> {
  const harness = harnessOf(s.name);
  const want = harness === "codex" ? "toml" : harness === "claude-cli" || harness === "shell" ? "sh" : "json";
  if (s.lang !== want) throw new Error(`${s.name}: ${harness} reads ${want}, the block is ${s.lang}`);
  switch (harness) {
    case "claude-cli":
      return [launchFromClaudeCli(s.name, s.text)];
    case "shell":
      return [launchFromShell(s.name, s.text)];
    case "codex":
      return launchesFromCodexToml(s.name, s.text);
    case "vscode":
      return launchesFromVscodeJson(s.name, s.text);
    case "zed":
      return launchesFromZedJson(s.name, s.text);
    default:
      return launchesFromMcpJson(s.name, s.text);
  }
}

/** The documents that pin a published version (`@resmon/<package>@x.y.z`). */
export const PINNING_DOCS = [
  SERVER_README,
  resolve(REPO_ROOT, "README.md"),
  resolve(REPO_ROOT, "packages", "api-client", "README.md"),
  resolve(REPO_ROOT, "docs", "embedded-assistant.md"),
  resolve(REPO_ROOT, "docs", "releasing.md"),
];
export const PIN = /@resmon\/(mcp-server|mcp-contract|api-client)@(\d+\.\d+\.\d+)/g;
/** A release file named with its version: `resmon-mcp-server-1.0.0.tgz` (pnpm pack), `resmon-mcp-1.0.0.mcpb`. */
export const FILE_PIN = /\bresmon-(mcp-server|mcp-contract|api-client|mcp)-(\d+\.\d+\.\d+)\.(tgz|mcpb)\b/g;

/** The versions the three published packages have now (fixed together by changesets). */
export async function publishedVersion(): Promise<string> {
  const pkg = JSON.parse(await readFile(resolve(SERVER_DIR, "package.json"), "utf8")) as { version: string };
  return pkg.version;
}

/** Rewrite every pin in PINNING_DOCS to the current version; run after `changeset version`. */
export async function syncPins(): Promise<string[]> {
  const version = await publishedVersion();
  const changed: string[] = [];
  for (const file of PINNING_DOCS) {
    const text = await readFile(file, "utf8").catch(() => undefined);
    if (text === undefined) continue;
    const next = text
      .replace(PIN, (_m, name: string) => `@resmon/${name}@${version}`)
      .replace(FILE_PIN, (_m, name: string, _v: string, ext: string) => `resmon-${name}-${version}.${ext}`);
    if (next !== text) {
      await writeFile(file, next);
      changed.push(file);
    }
  }
  return changed;
}

if (
  process.argv[1] &&
  resolve(process.argv[1]) === resolve(import.meta.filename ?? "") &&
  process.argv.includes("--pin")
) {
  syncPins().then((changed) => {
    process.stdout.write(
      changed.length ? `pinned the current version in ${changed.join(", ")}\n` : "pins already current\n",
    );
  });
}

/** The placeholders the snippets use; pack-check replaces each with the real thing. */
export const PLACEHOLDER = {
  port: "51734",
  portFile: "/path/to/resmon.port",
  stateDir: "/path/to/state",
  /** The absolute node path a GUI-launched harness needs (`which node`). */
  node: "/absolute/path/to/node",
  /** A clone of this repository, after `pnpm install && pnpm build`. */
  clone: "/path/to/resmon-mcp/",
  /** A directory the package was installed into with `npm install --prefix`. */
  installed: "/Users/you/.resmon-mcp/",
  /** The server's release tarball (`resmon-mcp-server-<version>.tgz`). */
  tarball: /^\/path\/to\/resmon-mcp-server-\d+\.\d+\.\d+\.tgz$/,
} as const;

export const BIN_IN_PACKAGE = "node_modules/@resmon/mcp-server/dist/resmon-mcp.cjs";
export const BIN_IN_CLONE = "packages/mcp-server/dist/resmon-mcp.cjs";

export type LaunchForm = "npx-pinned" | "npx-tarball" | "node-clone" | "node-installed";

/** How a launch starts the server; undefined for anything but the four forms the READMEs teach. */
export function formOf(launch: Launch, version: string): LaunchForm | undefined {
  const { command, args } = launch;
  const same = (want: string[]) => args.length === want.length && want.every((a, i) => args[i] === a);
  if (command === "npx" && same(["-y", `@resmon/mcp-server@${version}`])) return "npx-pinned";
  if (
    command === "npx" &&
    same(["-y", "--package", `/path/to/resmon-mcp-server-${version}.tgz`, "resmon-mcp"])
  )
    return "npx-tarball";
  if ((command === "node" || command === PLACEHOLDER.node) && same([`${PLACEHOLDER.clone}${BIN_IN_CLONE}`]))
    return "node-clone";
  if (command === PLACEHOLDER.node && same([`${PLACEHOLDER.installed}${BIN_IN_PACKAGE}`]))
    return "node-installed";
  return undefined;
}
