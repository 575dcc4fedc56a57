/**
 * The signals that stop the server cleanly, by platform. A harness stops a stdio server by closing
 * its stdin first (the server then exits: the SDK's transport closes the session), and only later by a signal. On Windows
 * there are no POSIX signals: `kill('SIGTERM')` there is TerminateProcess, which no handler sees, so
 * the server never waits for SIGTERM; what a console delivers is Ctrl-C (SIGINT), Ctrl-Break
 * (SIGBREAK) and its window closing (SIGHUP, emulated by node), and those are handled.
 */
export function stopSignals(platform: NodeJS.Platform): NodeJS.Signals[] {
  return platform === "win32" ? ["SIGINT", "SIGBREAK", "SIGHUP"] : ["SIGINT", "SIGTERM"];
}
