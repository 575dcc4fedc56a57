/**
 * `resmon-mcp doctor`: what discovery sees, said for a person. It runs @resmon/api-client's own
 * discover() (the same path the server takes) and reports around it: the variables, the port file
 * and what it holds, the state directory, whether the token file exists (never its content), what
 * GET /api/health answered, and for a refusal what to do. Exit 0 only when a resmon answered.
 * Every line is scrubbed of the token discovery read (resmon's own text, a health `version` say,
 * could carry it). With `tools`, the live check (live-check.ts) runs after a successful discovery.
 */
import { lstat, stat } from "node:fs/promises";
import { homedir as osHomedir } from "node:os";
import {
  type DiscoverOptions,
  type Discovery,
  type DiscoveryRefusal,
  discover,
  FILE_PROBLEM_TEXT,
  type RefusalKind,
  readSmallFile,
  resolvePortFile,
  resolveStateDir,
  tokenFileFor,
} from "@resmon/api-client";
import { CONTRACT_VERSION } from "@resmon/mcp-contract";
import { probeTimeoutFor } from "../backend/adapter.js";
import { inTheServersWords } from "../backend/http-errors.js";
import { type Config, readConfig, VARIABLES } from "../config.js";
import { boundEchoes } from "../errors.js";
import { printable, registerSecret, scrub } from "../scrub.js";
import { PACKAGE_VERSION } from "../version.js";
import { pathValueWarnings } from "./path-values.js";

export interface DoctorOptions {
  env?: Record<string, string | undefined>;
  platform?: NodeJS.Platform;
  homedir?: string;
  probeTimeoutMs?: number;
  write?: (line: string) => void;
  /** Also run the live check: every read tool through this server (`doctor --tools`). */
  tools?: boolean;
  /** With tools: the writes too (`--writes`), announced before they are sent. */
  writes?: boolean;
  /** With tools: the server to start (default this bin). */
  server?: { command: string; args: string[] };
}

/** For each way discovery can refuse: what to do about it. */
export const WHAT_TO_DO: Readonly<Record<RefusalKind, string>> = {
  nothing_named:
    "Start resmon. If it is running, set RESMON_PORT to its port, or RESMON_PORT_FILE to the port file that " +
    "instance writes (a resmon started with RESMON_DB_PATH writes resmon.port beside its database).",
  unusable_port_file:
    "The port file is not the small regular file resmon writes (a named pipe, a device, a directory, or far too " +
    "large), so it was not read. Remove whatever is at that path and restart resmon, or point RESMON_PORT_FILE at " +
    "the file the instance you mean writes.",
  unusable_token_file:
    "The token file is not the small regular file resmon writes (a named pipe, a device, a directory, or far too " +
    "large), so it was not read. Remove whatever is at that path and restart resmon: it writes a fresh one, owner-only.",
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
    "resmon said why above. token_invalid: the token file is from an earlier run or another instance; restart " +
    "resmon so it writes a fresh one, or set RESMON_STATE_DIR to the state directory of the instance on this port. " +
    "token_missing: no token reached it although one was sent; check nothing between strips the Authorization " +
    "header, and that the port names the resmon you mean.",
  unguarded_resmon:
    "This resmon has no local API guard and publishes no token file (resmon's public 1.6/1.7 builds are so), and " +
    "this server attaches only to a resmon that publishes a token: no setting of this server reaches it. Update " +
    "the resmon app to a release with the local API token, start it, and run this again.",
  not_resmon:
    "Something other than resmon answers on this port. Check RESMON_PORT / RESMON_PORT_FILE name the resmon you " +
    "mean; restart resmon so it writes its current port.",
};

/**
 * Two version numbers meet in doctor's output: the banner's is this server's tool-surface contract
 * (CONTRACT_VERSION, e.g. 1.1); the identity's contract_version is resmon's, the format of the
 * instance-identity block its health answer carries (1 in every resmon so far).
 */
export const IDENTITY_CONTRACT_NOTE =
  "contract_version is resmon's instance-identity format, not the tool-surface contract in the banner";

/** A port or token file read that timed out is not a foreign file: nothing to remove, and not surely the disk. */
const SLOW_FILE_READ =
  "The file was not read within the time this process waited for it: a stalled disk or network filesystem " +
  "does this, and so does a machine too loaded to run the read; the file itself may be fine. Run this again " +
  "in a moment; remove nothing.";

/** What to do about one refusal (doctor's words; the start-up probe says the same, start-probe.ts). */
export function whatToDo(refusal: { kind: RefusalKind; fileProblem?: string }): string {
  return refusal.fileProblem === "timeout" ? SLOW_FILE_READ : WHAT_TO_DO[refusal.kind];
}

const SHORT_PORT = /^\s*\d{1,5}\s*$/;

const PORT_FILE_FROM = {
  RESMON_PORT_FILE: "from RESMON_PORT_FILE",
  RESMON_DB_PATH: "beside RESMON_DB_PATH",
  default: "the packaged app's default",
} as const;

function shown(name: string, value: string | undefined, config: Config): string {
  if (value === undefined || value.trim() === "") return "(not set)";
  const problem = config.problems.find((p) => p.variable === name);
  if (problem) return `NOT USED: ${problem.message}`;
  // A port or a switch is short; a long value in RESMON_PORT could be anything, so it is not echoed.
  if ((name === "RESMON_PORT" || name.startsWith("RESMON_MCP_")) && value.trim().length > 12)
    return "(set to a long value, not shown)";
  if (name === "RESMON_MCP_READ_ONLY")
    return value === "1" ? "1 (reads only: writes refused)" : `${value} (not exactly 1: writes stay on)`;
  return value;
}

/** Read as discovery reads it: bounded, and never a FIFO or a device. */
async function portFileContent(path: string): Promise<string> {
  const read = await readSmallFile(path);
  if (read.ok) {
    return SHORT_PORT.test(read.text)
      ? `holds ${read.text.trim()}`
      : `does not hold a port (${read.text.length} characters)`;
  }
  if (read.problem === "unreadable") return `cannot be read (${read.code ?? "error"})`;
  return FILE_PROBLEM_TEXT[read.problem];
}

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

/** What is at the token path (never its content), and what about it deserves a warning. */
export async function tokenFileReport(
  path: string,
  platform: NodeJS.Platform,
): Promise<{ state: string; warnings: string[] }> {
  const link = await lstat(path).catch(() => undefined);
  if (link === undefined) return { state: "absent", warnings: [] };
  const target = await stat(path).catch(() => undefined);
  const warnings: string[] = [];
  if (link.isSymbolicLink()) {
    warnings.push(
      "the token file is a symbolic link; resmon writes a regular file there, so something else put this link in its place",
    );
  }
  if (target === undefined) return { state: "a link to nothing", warnings };
  if (!target.isFile()) return { state: "present, but not a regular file (not read)", warnings };
  // Windows has no mode bits (node reports 0o666 for any writable file): who may read the file is
  // its ACL, which this does not read, so it says so rather than warn on a mode that means nothing.
  if (platform === "win32")
    return {
      state: "present (content not shown; who may read it is its Windows ACL, not checked here)",
      warnings,
    };
  if ((target.mode & 0o044) !== 0) {
    const mode = (target.mode & 0o777).toString(8).padStart(3, "0");
    warnings.push(
      `the token file is readable by ${target.mode & 0o004 ? "others" : "its group"} (mode ${mode}); resmon writes it owner-only (600), and anyone who can read it can drive this resmon: chmod 600 it, or restart resmon`,
    );
  }
  return { state: "present (content not shown)", warnings };
}

async function liveCheck(
  opts: DoctorOptions,
  env: Record<string, string | undefined>,
  token: string,
  write: (line: string) => void,
): Promise<boolean> {
  const { runLiveCheck } = await import("./live-check.js");
  const named: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) named[key] = value;
  write("");
  write(`Live check: every ${opts.writes ? "tool" : "read tool"} through this server, held to the contract`);
  const { ok } = await runLiveCheck({
    env: named,
    token,
    writes: opts.writes === true,
    write,
    ...(opts.server ? { server: opts.server } : {}),
  });
  return ok;
}

/** resmon's own text, scrubbed and then cut to the bound an error echo has (a cut never splits a token). */
function said(value: unknown): string {
  return boundEchoes(scrub(String(value)));
}

function healthLines(health: unknown): string[] {
  const h = health !== null && typeof health === "object" ? (health as Record<string, unknown>) : {};
  const lines = [`  status:          ${said(h.status)}`];
  if (typeof h.version === "string") lines.push(`  resmon version:  ${said(h.version)}`);
  const embeddings = h.embeddings as { extension?: unknown; reason?: unknown } | undefined;
  if (embeddings && typeof embeddings === "object") {
    const ext = embeddings.extension ?? null;
    const reason = typeof embeddings.reason === "string" ? ` (${said(embeddings.reason)})` : "";
    lines.push(`  embeddings:      ${ext === null ? `unavailable${reason}` : said(ext)}`);
  }
  return lines;
}

/**
 * Discovery as the server runs it: its probe timeout and body ceiling, so "a harness reaches it" is
 * said only when the server would; the token goes to the scrubber as soon as it is read.
 */
export async function discoverAsTheServer(
  env: Record<string, string | undefined> | undefined,
  more: Omit<DiscoverOptions, "env" | "maxBodyBytes"> = {},
): Promise<Discovery> {
  const config = readConfig(env);
  return inTheServersWords(
    await discover({
      probeTimeoutMs: probeTimeoutFor(config.timeoutMs),
      ...more,
      env: config.env,
      ...(config.maxBodyBytes !== undefined ? { maxBodyBytes: config.maxBodyBytes } : {}),
      onToken: (value) => {
        registerSecret(value);
        more.onToken?.(value);
      },
    }),
  );
}

export async function runDoctor(opts: DoctorOptions = {}): Promise<number> {
  const config = readConfig(opts.env);
  const { env } = config;
  const platform = opts.platform ?? process.platform;
  const homedir = opts.homedir ?? osHomedir();
  const out = opts.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  // One line each, scrubbed, and no control character as itself (resmon's text is in some).
  const write = (line: string) => out(printable(scrub(line)));

  write(
    `resmon-mcp doctor — @resmon/mcp-server ${PACKAGE_VERSION}, tool-surface contract ${CONTRACT_VERSION}`,
  );
  write("");
  write("Variables");
  for (const v of VARIABLES)
    write(`  ${v.name.padEnd(26)} ${shown(v.name, env[v.name], config)}   [${v.names}]`);
  const warnings = pathValueWarnings(env);
  for (const warning of warnings) write(`  warning:         ${warning}`);

  let token = "";
  const found = await discoverAsTheServer(env, {
    platform,
    homedir,
    ...(opts.probeTimeoutMs !== undefined ? { probeTimeoutMs: opts.probeTimeoutMs } : {}),
    onToken: (value) => {
      token = value;
    },
  });
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
    const report = await tokenFileReport(tokenFile, platform);
    write(`  token file:      ${tokenFile} — ${report.state}`);
    for (const warning of report.warnings) write(`  warning:         ${warning}`);
    warnings.push(...report.warnings);
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
      write(`                   (${IDENTITY_CONTRACT_NOTE})`);
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
    const caveat = warnings.length
      ? ` (${warnings.length} warning${warnings.length > 1 ? "s" : ""} above)`
      : "";
    if (config.problems.length > 0) {
      // resmon answered, but the server would refuse the calls these variables govern.
      for (const p of config.problems) write(`Refused (bad_configuration): ${p.message}`);
      return 1;
    }
    write(`OK: a resmon answered. A harness started with these variables reaches it${caveat}.`);
    if (opts.tools) return (await liveCheck(opts, env, token, write)) ? 0 : 1;
    return 0;
  }

  const r = refusal as DiscoveryRefusal;
  const notTried = r.port === undefined ? "nothing named a port" : "there was no token to send";
  // With no token file discovery asks health once without a token, to tell an unguarded resmon apart.
  const tokenless =
    r.kind === "no_token_file" || r.kind === "unguarded_resmon" ? " without a token (there was none)" : "";
  write(
    `GET /api/health: ${r.tried.length ? `tried ${r.tried.join(", ")}${tokenless}` : `not tried (${notTried})`}`,
  );
  write("");
  write(`Refused (${r.kind}): ${r.message}`);
  write("");
  write(`What to do: ${whatToDo(r)}`);
  return 1;
}
