/** Starting the CLIs pack-check drives: a clean environment, a bounded run, a few lines of what it said. */
import { execFile } from "node:child_process";

/** A child environment without pnpm's npm_* variables (they would steer the npm we start). */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || /^(npm_|pnpm_)/i.test(k) || k === "XDG_STATE_HOME" || k.startsWith("RESMON_"))
      continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function exec(
  cmd: string,
  args: string[],
  opts: { cwd: string; env?: Record<string, string>; timeoutMs?: number },
) {
  return new Promise<Ran>((done) => {
    execFile(
      cmd,
      args,
      { cwd: opts.cwd, env: opts.env ?? cleanEnv(), timeout: opts.timeoutMs ?? 180_000, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        done({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

export function lastLines(text: string, n = 6): string {
  return text.trim().split("\n").slice(-n).join(" | ");
}

/** Run `fn` over `items`, at most `n` at a time. */
export async function pool<T>(items: readonly T[], n: number, fn: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: Math.min(n, queue.length) }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await fn(item);
    }),
  );
}
