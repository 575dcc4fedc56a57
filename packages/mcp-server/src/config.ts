/**
 * The server's configuration: every RESMON_* variable it or its libraries read, declared once in
 * VARIABLES (what it names, what it takes, its default), parsed once into a typed Config. This is
 * the one module of the server that reads process.env; the libraries get values or `env` from here.
 * No zod, no SDK: the bin reads it before it loads either. `--help`, `doctor`'s variables and the
 * READMEs' tables (a figure, tools/src/figures) are rendered from VARIABLES.
 *
 * A value that cannot be used is never silently replaced by the default: the server says so on
 * stderr at start, and every call the variable governs answers backend_unavailable naming it
 * (reason `bad_configuration`), before anything is sent to resmon.
 */
import { posix } from "node:path";

export type Env = Readonly<Record<string, string | undefined>>;

/** Who uses a variable's value: discovery (@resmon/api-client, which checks it on every call), the server, the scan tools. */
export type Scope = "discovery" | "every tool" | "scan tools";

/** setTimeout's ceiling: a longer delay fires at once, so a longer wait is no wait. */
const MAX_TIMER_MS = 2_147_483_647;

type Parsed<T> = { ok: true; value: T } | { ok: false };

export interface Variable {
  name: string;
  /** What it names, in a few words (`--help`, `doctor`). */
  names: string;
  /** The values it takes, said for a person. */
  takes: string;
  /** What holds when it is unset (or empty; a value of only spaces is refused, like any it does not take). */
  default: string;
  /** Said in the READMEs' table after `names`, where more needs saying. */
  more?: string;
  scope: Scope;
}

interface Declared<T> extends Variable {
  /** Only for a set, non-empty value; discovery's variables are checked by discovery itself. */
  parse?: (raw: string) => Parsed<T>;
}

/** A whole number of at least `min`, at most `max`, written as digits only. */
function wholeNumber(min: number, max: number): (raw: string) => Parsed<number> {
  return (raw) => {
    const text = raw.trim();
    const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    return Number.isSafeInteger(n) && n >= min && n <= max ? { ok: true, value: n } : { ok: false };
  };
}

const TIMEOUT = {
  name: "RESMON_MCP_TIMEOUT_MS",
  names: "the time one tool call's requests to resmon may take in all, in ms",
  takes: `a whole number of ms from 1 to ${MAX_TIMER_MS}`,
  default: "30000",
  more: "finding resmon included, counted from when the call starts running (not while it waits for one of the server's 8 places, nor while a large answer waits for its turn to be read); past it the call is `backend_unavailable`. Each request gets what the earlier ones left, so a call ends within the timeout + 1 s of its start; a write whose read-back runs out of time says the write was sent",
  scope: "every tool",
  parse: wholeNumber(1, MAX_TIMER_MS),
} satisfies Declared<number>;

/**
 * The most RESMON_MCP_MAX_BODY_BYTES takes: a 64 MiB answer is ten times resmon's largest page, and
 * a ceiling near 2^53 is no ceiling (the server's memory bound rests on it).
 */
const MAX_BODY_CEILING = 64 * 1024 * 1024;

const MAX_BODY = {
  name: "RESMON_MCP_MAX_BODY_BYTES",
  names: "the largest answer read from resmon, in bytes",
  takes: `a whole number of bytes from 1 to ${MAX_BODY_CEILING} (64 MiB)`,
  default: "6291456, 6 MiB",
  more: "counted as it is written out again (a quote or backslash counts twice, a text export's control character seven) while it streams in; a larger one is `upstream_error` naming the ceiling and its connection is closed. A JSON answer of more than 250,000 values is refused the same way (`detail.limit_json_values`). With both, the server stays under 200 MB RSS",
  scope: "every tool",
  parse: wholeNumber(1, MAX_BODY_CEILING),
} satisfies Declared<number>;

const SCAN_DATA = {
  name: "RESMON_MCP_SCAN_DATA",
  names: "where the scan tools keep each scan's state and evidence",
  takes: "an absolute directory path",
  default: "the user data dir + resmon-mcp/scans",
  more: "never resmon's own state dir; a relative path would land scans wherever the harness happens to run",
  scope: "scan tools",
  parse: (raw) => (isScanDataPath(raw.trim()) ? { ok: true, value: raw.trim() } : { ok: false }),
} satisfies Declared<string>;

/**
 * An absolute path as the scan engine takes one (@resmon/scan's isFullPath, restated here: the bin's
 * front loads this module and not the scan engine): on Windows with its drive or a UNC share, since
 * `\scans`, `/scans` and `C:scans` depend on the drive or directory the harness starts in.
 */
export function isScanDataPath(path: string, platform: NodeJS.Platform = process.platform): boolean {
  return platform === "win32" ? /^(?:[A-Za-z]:[\\/]|[\\/]{2}[^\\/])/.test(path) : posix.isAbsolute(path);
}

const SCAN_WAIT = {
  name: "RESMON_MCP_SCAN_WAIT_MS",
  names: "how long one scan call may work before it answers `await_retrieval`, in ms",
  takes: `a whole number of ms from 0 to ${MAX_TIMER_MS}`,
  default: "20000",
  more: "0 answers at once and leaves the waiting to the polls",
  scope: "scan tools",
  parse: wholeNumber(0, MAX_TIMER_MS),
} satisfies Declared<number>;

const SCAN_RETRY_WAIT = {
  name: "RESMON_MCP_SCAN_RETRY_WAIT_MS",
  names:
    "how long a scan waits before it sends again a round in which no retrieval finished or no source answered, in ms",
  takes: `a whole number of ms from 0 to ${MAX_TIMER_MS}`,
  default: "60000",
  more: "a round is sent again once; if it fails again the scan stops with `choose_option`",
  scope: "scan tools",
  parse: wholeNumber(0, MAX_TIMER_MS),
} satisfies Declared<number>;

const READ_ONLY = {
  name: "RESMON_MCP_READ_ONLY",
  names: "`1`: reads only, listing only the reads and refusing every write",
  takes:
    "`1` (spaces around it too: a near-miss fails closed); any other value leaves the full surface (the spec's rule)",
  default: "the full surface",
  more: 'a refused write is `invalid_argument` with `detail: {"read_only": true}`',
  scope: "every tool",
} satisfies Declared<never>;

/** Every variable, in the order the tables list them. */
export const VARIABLES: readonly Variable[] = [
  {
    name: "RESMON_PORT",
    names: "which resmon: the port of the running instance, named outright",
    takes: "a port, 1 to 65535",
    default: "the port file",
    scope: "discovery",
  },
  {
    name: "RESMON_PORT_FILE",
    names: "which resmon: the port file that instance writes",
    takes: "a file path",
    default: "`resmon.port` beside `RESMON_DB_PATH`, else beside the packaged app's default database",
    scope: "discovery",
  },
  {
    name: "RESMON_DB_PATH",
    names: "the database of a resmon started with one (its port file is `resmon.port` beside it)",
    takes: "a file path",
    default: "the packaged app's",
    scope: "discovery",
  },
  {
    name: "RESMON_STATE_DIR",
    names: "where that resmon's token is: the state directory holding `api-token-<port>`",
    takes: "a directory path",
    default: "the platform's state directory",
    more: "needed when that resmon does not use the platform default",
    scope: "discovery",
  },
  READ_ONLY,
  TIMEOUT,
  MAX_BODY,
  SCAN_DATA,
  SCAN_WAIT,
  SCAN_RETRY_WAIT,
];

/** A variable set to a value it does not take. */
export interface ConfigProblem {
  variable: string;
  scope: Scope;
  /** One sentence for a person: the variable, what it is set to (when short), what it takes. */
  message: string;
}

export interface Config {
  /** RESMON_MCP_READ_ONLY is "1", spaces around it allowed. */
  readOnly: boolean;
  // Each value below is undefined when unset (or refused): its library's default then holds, the one
  // the table's `default` states (config.test.ts holds them equal).
  /** RESMON_MCP_TIMEOUT_MS. */
  timeoutMs: number | undefined;
  /** RESMON_MCP_MAX_BODY_BYTES. */
  maxBodyBytes: number | undefined;
  /** RESMON_MCP_SCAN_DATA: an absolute path. */
  scanDataDir: string | undefined;
  /** RESMON_MCP_SCAN_WAIT_MS. */
  scanWaitMs: number | undefined;
  /** RESMON_MCP_SCAN_RETRY_WAIT_MS. */
  scanRetryWaitMs: number | undefined;
  /** What discovery reads (RESMON_PORT, RESMON_PORT_FILE, RESMON_DB_PATH, RESMON_STATE_DIR, the platform's dirs). */
  env: Env;
  /** Values not used: every call a problem's scope covers is refused naming it. */
  problems: ConfigProblem[];
  /** Said at start, changing nothing (RESMON_MCP_READ_ONLY set to something other than 1). */
  notes: string[];
}

/** A value as a message may echo it: a short one as written, a long one not at all. */
function quoted(raw: string): string {
  return raw.length <= 40 ? JSON.stringify(raw) : `a value of ${raw.length} characters`;
}

function problemOf(v: Variable, raw: string): ConfigProblem {
  return {
    variable: v.name,
    scope: v.scope,
    message: `${v.name} is set to ${quoted(raw)}, which is not ${v.takes}; unset it for the default (${v.default}).`,
  };
}

/** Parse every variable of `env` (default: this process's). */
export function readConfig(env: Env = process.env): Config {
  const problems: ConfigProblem[] = [];
  const notes: string[] = [];
  function value<T>(v: Declared<T> & { parse: (raw: string) => Parsed<T> }): T | undefined {
    const raw = env[v.name];
    // Empty is unset; only spaces is a value, refused like any other it does not take.
    if (raw === undefined || raw === "") return undefined;
    const parsed = v.parse(raw);
    if (parsed.ok) return parsed.value;
    problems.push(problemOf(v, raw));
    return undefined;
  }
  const readOnlyRaw = env[READ_ONLY.name];
  // "1 " (a stray space from a shell or a config file) is 1: a near-miss fails closed, never open.
  const readOnly = readOnlyRaw?.trim() === "1";
  if (readOnlyRaw !== undefined && readOnlyRaw !== "" && readOnlyRaw !== "1") {
    notes.push(
      readOnly
        ? `${READ_ONLY.name} is set to ${quoted(readOnlyRaw)}, read as 1: this server is read-only, listing only the reads.`
        : `${READ_ONLY.name} is set to ${quoted(readOnlyRaw)}, not 1, so this server serves the full surface, writes included.`,
    );
  }
  return {
    readOnly,
    timeoutMs: value(TIMEOUT),
    maxBodyBytes: value(MAX_BODY),
    scanDataDir: value(SCAN_DATA),
    scanWaitMs: value(SCAN_WAIT),
    scanRetryWaitMs: value(SCAN_RETRY_WAIT),
    env,
    problems,
    notes,
  };
}

/** The lines the server writes to stderr at start: each value it will not use, and each note. */
export function startupLines(config: Config): string[] {
  return [
    ...config.problems.map(
      (p) =>
        `configuration: ${p.message} Until then ${p.scope === "scan tools" ? "every scan tool call" : "every tool call"} answers backend_unavailable naming it.`,
    ),
    ...config.notes.map((n) => `configuration: ${n}`),
  ];
}

/** `--help`'s environment lines. */
export function helpLines(): string[] {
  const width = Math.max(...VARIABLES.map((v) => v.name.length));
  return VARIABLES.map(
    (v) =>
      `  ${v.name.padEnd(width)}  ${v.names.replaceAll("`", "")} (default: ${v.default.replaceAll("`", "")})`,
  );
}

/** The READMEs' table (Markdown, its columns aligned as the formatter aligns them), as the figure `config.variables` renders it. */
export function variablesTable(): string {
  const rows = [
    ["variable", "names", "takes", "default"],
    ...VARIABLES.map((v) => [
      `\`${v.name}\``,
      v.more ? `${v.names}; ${v.more}` : v.names,
      v.takes,
      v.default,
    ]),
  ];
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length))) ?? [];
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  const [head = [], ...body] = rows;
  return [line(head), line(widths.map((w) => "-".repeat(w))), ...body.map(line)].join("\n");
}
