/**
 * Ctrl-C ends the demo cleanly with exit code 0. In a terminal the demo reads Ctrl-C as a key (raw
 * mode), so the terminal never sends SIGINT to the process group: pnpm, which runs the demo, would
 * take the signal as the script failing and print ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL. Outside a
 * terminal (CI, a pipe), SIGINT, SIGTERM and SIGHUP do the same, and on Windows Ctrl-Break
 * (SIGBREAK; SIGTERM never arrives there).
 */
const STOP_KEYS = new Set([0x03 /* Ctrl-C */, 0x04 /* Ctrl-D */, 0x71 /* q */]);

export function onStop(stop: () => void): void {
  const stdin = process.stdin;
  if (stdin.isTTY) {
    stdin.setRawMode(true);
    // Whatever way the process ends, the terminal gets its line mode back.
    process.on("exit", () => stdin.setRawMode(false));
    stdin.on("data", (chunk: Buffer) => {
      if (chunk.some((byte) => STOP_KEYS.has(byte))) stop();
    });
    stdin.resume();
    // Reading stdin must not keep a finished demo alive.
    stdin.unref();
  }
  for (const signal of demoStopSignals(process.platform)) process.on(signal, stop);
}

export function demoStopSignals(platform: NodeJS.Platform): NodeJS.Signals[] {
  return platform === "win32" ? ["SIGINT", "SIGBREAK", "SIGHUP"] : ["SIGINT", "SIGTERM", "SIGHUP"];
}

/** Stops listening (the tour is over and nothing is left to serve). */
export function releaseStop(): void {
  if (process.stdin.isTTY) {
    process.stdin.setRawMode(false);
    process.stdin.pause();
  }
}
