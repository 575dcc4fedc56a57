/**
 * Starting npm's commands the way each platform does. On Windows `npx`, `npm` and `pnpm` are batch
 * shims (`npx.cmd`): a harness that starts a process without a shell cannot start them by name (Node
 * refuses a `.cmd` without a shell since 20.12, and a bare `npx` is not found at all), so the
 * README's Windows form is `cmd /c npx …`. A script runs them through `cmd.exe /d /s /c "<line>"`,
 * what `shell: true` does, with each word quoted for cmd.
 */
import { execFile } from "node:child_process";

/** npm's commands that are `.cmd` shims on Windows. */
export const SHIMS = new Set(["npx", "npm", "pnpm"]);

export interface Launch {
  command: string;
  args: string[];
}

/** How a harness without a shell must name `command`: `cmd /c npx …` on Windows, as written elsewhere. */
export function harnessLaunch(platform: NodeJS.Platform, command: string, args: readonly string[]): Launch {
  if (platform === "win32" && SHIMS.has(command)) return { command: "cmd", args: ["/c", command, ...args] };
  return { command, args: [...args] };
}

/** A word as cmd.exe reads it: plain when it is only safe characters, else in double quotes. */
export function cmdWord(word: string): string {
  if (/^[\w.:\\/@=+,-]+$/.test(word)) return word;
  // Inside quotes cmd still expands %VAR% and a quote ends the word: neither has a safe spelling.
  if (/["%\r\n]/.test(word)) throw new Error(`cannot pass ${JSON.stringify(word)} through cmd.exe safely`);
  return `"${word}"`;
}

/** The command line `cmd.exe /d /s /c "<line>"` runs for a command and its words. */
export function cmdLine(command: string, args: readonly string[]): string {
  return [command, ...args].map(cmdWord).join(" ");
}

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** What starts `command` from a script on `platform`: npm's shims through `cmd.exe /d /s /c "…"` on Windows. */
export function invocation(
  platform: NodeJS.Platform,
  command: string,
  args: readonly string[],
  comSpec = "cmd.exe",
): { file: string; args: string[]; verbatim: boolean } {
  if (platform === "win32" && SHIMS.has(command))
    return { file: comSpec, args: ["/d", "/s", "/c", `"${cmdLine(command, args)}"`], verbatim: true };
  return { file: command, args: [...args], verbatim: false };
}

/** Run a command as a script on this platform would (invocation), bounded in time and output. */
export function run(
  command: string,
  args: readonly string[],
  opts: { cwd: string; env: Record<string, string>; timeoutMs?: number },
  platform: NodeJS.Platform = process.platform,
): Promise<Ran> {
  const how = invocation(platform, command, args, opts.env.ComSpec ?? process.env.ComSpec);
  return new Promise((done) => {
    execFile(
      how.file,
      how.args,
      {
        cwd: opts.cwd,
        env: opts.env,
        timeout: opts.timeoutMs ?? 180_000,
        maxBuffer: 64 << 20,
        windowsVerbatimArguments: how.verbatim,
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        done({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

/**
 * A command line as a Windows program receives it (PowerShell and cmd hand a double-quoted word on
 * as written; the C runtime and node split it): whitespace separates, double quotes group, 2n
 * backslashes before a quote are n and the quote toggles, 2n+1 are n and a literal quote; any other
 * backslash is itself. The tests read the Windows snippets with it.
 */
export function windowsWords(line: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] ?? "";
    if (c === "\\") {
      let n = 0;
      while (line[i + n] === "\\") n++;
      const beforeQuote = line[i + n] === '"';
      word = (word ?? "") + "\\".repeat(beforeQuote ? Math.floor(n / 2) : n);
      if (beforeQuote && n % 2 === 1) word += '"';
      else if (beforeQuote) quoted = !quoted;
      i += beforeQuote ? n : n - 1;
      continue;
    }
    if (c === '"') {
      quoted = !quoted;
      word ??= "";
      continue;
    }
    if (!quoted && /\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
      continue;
    }
    word = (word ?? "") + c;
  }
  if (word !== null) words.push(word);
  return words;
}
