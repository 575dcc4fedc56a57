/**
 * `resmon-mcp doctor`: what discovery sees, said for a person. It runs @resmon/api-client's own
 * discover() (the same path the server takes) and reports around it: the variables, the port file
 * and what it holds, the state directory, whether the token file exists (never its content), what
 * GET /api/health answered, and for a refusal what to do. Exit 0 only when a resmon answered.
 */
import { readFile, stat } from "node:fs/promises";
import { homedir as osHomedir } from "node:os";
import {
  type DiscoveryRefusal,
  discover,
  type RefusalKind,
  resolvePortFile,
  resolveStateDir,
  tokenFileFor,
} from "@resmon/api-client";
import { CONTRACT_VERSION } from "@resmon/mcp-contract";
import { PACKAGE_VERSION } from "./version.js";

export interface DoctorOptions {
  env?: Record<string, string | undefined>;
  platform?: NodeJS.Platform;
  homedir?: string;
  probeTimeoutMs?: number;
  write?: (line: string) => void;
}

/** The variables discovery and the server read, and what each names. */
const VARIABLES: readonly [string, string][] = [
  ["RESMON_PORT", "which resmon: its port, named outright"],
  ["RESMON_PORT_FILE", "which resmon: the port file it writes"],
  ["RESMON_DB_PATH", "which resmon: its database (the port file is resmon.port beside it)"],
  ["RESMON_STATE_DIR", "where that resmon's token file is"],
  ["RESMON_MCP_READ_ONLY", "exactly 1: reads only"],
  ["RESMON_MCP_TIMEOUT_MS", "per-request timeout in ms"],
];

/** For each way discovery can refuse: what to do about it. */
export const WHAT_TO_DO: Readonly<Record<RefusalKind, string>> = {
  nothing_named:
    "Start resmon. If it is running, set RESMON_PORT to its port, or RESMON_PORT_FILE to the port file that " +
    "instance writes (a resmon started with RESMON_DB_PATH writes resmon.port beside its database).",
  bad_port:
    "Set RESMON_PORT to a number from 1 to 65535, or point RESMON_PORT_FILE at the file resmon writes; a port " +
    "file that holds something else is left from something other than resmon, or half-written: restart resmon.",
  not_answering:
    "Start resmon (or restart it: a port file left by an app that has exited names a port nothing listens on). " +
    "If resmon is running, the port named here is not its port: check RESMON_PORT or RESMON_PORT_FILE.",
  no_token_file:
    "resmon writes api-token-<port> into its state directory when it starts. Set RESMON_STATE_DIR to the state " +
    "directory of the instance on this port (a resmon started with its own RESMON_STATE_DIR keeps it there).",
  token_refused:
    "The token file is from an earlier run or another instance: restart resmon so it writes a fresh one, or set " +
    "RESMON_STATE_DIR to the state directory of the instance on this port.",
  not_resmon:
    "Something other than resmon answers on this port. Check RESMON_PORT / RESMON_PORT_FILE name the resmon you " +
    "mean; restart resmon so it writes its current port.",
};

const SHORT_PORT = /^\s*\d{1,5}\s*$/;

const PORT_FILE_FROM = {
  RESMON_PORT_FILE: "from RESMON_PORT_FILE",
  RESMON_DB_PATH: "beside RESMON_DB_PATH",
  default: "the packaged app's default",
} as const;

function shown(name: string, value: string | undefined): string {
  if (value === undefined || value.trim() === "") return "(not set)";
  // A port or a switch is short; a long value in RESMON_PORT could be anything, so it is not echoed.
  if ((name === "RESMON_PORT" || name.startsWith("RESMON_MCP_")) && value.trim().length > 12)
    return "(set to a long value, not shown)";
  if (name === "RESMON_MCP_READ_ONLY")
    return value === "1" ? "1 (reads only: writes refused)" : `${value} (not exactly 1: writes stay on)`;
  return value;
}

async function portFileContent(path: string): Promise<string> {
  try {
    const text = await readFile(path, "utf8");
    return SHORT_PORT.test(text)
      ? `holds ${text.trim()}`
      : `does not hold a port (${text.length} characters)`;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" ? "does not exist" : `cannot be read (${code ?? "error"})`;
  }
}

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

async function fileExists(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}

function healthLines(health: unknown): string[] {
  const h = health !== null && typeof health === "object" ? (health as Record<string, unknown>) : {};
  const lines = [`  status:          ${String(h.status)}`];
  if (typeof h.version === "string") lines.push(`  resmon version:  ${h.version}`);
  const embeddings = h.embeddings as { extension?: unknown; reason?: unknown } | undefined;
  if (embeddings && typeof embeddings === "object") {
    const ext = embeddings.extension ?? null;
    const reason = typeof embeddings.reason === "string" ? ` (${embeddings.reason})` : "";
    lines.push(`  embeddings:      ${ext === null ? `unavailable${reason}` : String(ext)}`);
  }
  return lines;
}

export async function runDoctor(opts: DoctorOptions = {}): Promise<number> {
  const env = opts.env ?? process.env;
  const platform = opts.platform ?? process.platform;
  const homedir = opts.homedir ?? osHomedir();
  const write = opts.write ?? ((line: string) => process.stdout.write(`${line}\n`));

  write(`resmon-mcp doctor — @resmon/mcp-server ${PACKAGE_VERSION}, contract ${CONTRACT_VERSION}`);
  write("");
  write("Variables");
  for (const [name, what] of VARIABLES) write(`  ${name.padEnd(22)} ${shown(name, env[name])}   [${what}]`);

  const found = await discover({ env, platform, homedir, probeTimeoutMs: opts.probeTimeoutMs ?? 3_000 });
  const portFile = resolvePortFile(platform, env, homedir);
  const stateDir = resolveStateDir(platform, env, homedir);
  const portNamedByEnv = (env.RESMON_PORT ?? "").trim() !== "";

  write("");
  write("Discovery");
  const from = PORT_FILE_FROM[portFile.source];
  write(`  port file:       ${portFile.path} (${from}) — ${await portFileContent(portFile.path)}`);
  if (portNamedByEnv) write("                   (not read: RESMON_PORT names the port)");
  const stateFrom = (env.RESMON_STATE_DIR ?? "").trim() ? "from RESMON_STATE_DIR" : "the platform default";
  const stateNote = (await isDirectory(stateDir)) ? "" : " — does not exist";
  write(`  state dir:       ${stateDir} (${stateFrom})${stateNote}`);

  const refusal: DiscoveryRefusal | undefined = found.ok ? undefined : found.refusal;
  const port = found.ok ? found.port : refusal?.port;
  const tokenFile = found.ok ? tokenFileFor(platform, found.stateDir, found.port) : refusal?.tokenFile;
  write(`  port:            ${port ?? "none named"}`);
  if (tokenFile) {
    const present = (await fileExists(tokenFile)) ? "present (content not shown)" : "absent";
    write(`  token file:      ${tokenFile} — ${present}`);
  } else {
    write("  token file:      (no port named, so none to look for)");
  }

  write("");
  if (found.ok) {
    write(`GET /api/health at ${found.baseUrl}: answered`);
    for (const line of healthLines(found.health)) write(line);
    if (found.identity.ok) {
      const id = found.identity.identity;
      write(`  identity:        runtime_id ${id.runtime_id}, contract_version ${id.contract_version}`);
      write(
        `                   schema_version ${id.schema_version ?? "null"}, corpus_id ${id.corpus_id ?? "null"}, build_id ${id.build_id ?? "null"}`,
      );
    } else {
      write(
        `  identity:        ${found.identity.problem} (reads work; get_execution cannot pin this instance)`,
      );
    }
    await found.client.close();
    write("");
    write("OK: a resmon answered. A harness started with these variables reaches it.");
    return 0;
  }

  const r = refusal as DiscoveryRefusal;
  const notTried = r.port === undefined ? "nothing named a port" : "there was no token to send";
  write(`GET /api/health: ${r.tried.length ? `tried ${r.tried.join(", ")}` : `not tried (${notTried})`}`);
  write("");
  write(`Refused (${r.kind}): ${r.message}`);
  write("");
  write(`What to do: ${WHAT_TO_DO[r.kind]}`);
  write("");
  write("Every way discovery can refuse, and what to do:");
  for (const [kind, advice] of Object.entries(WHAT_TO_DO)) write(`  ${kind.padEnd(14)} ${advice}`);
  return 1;
}
