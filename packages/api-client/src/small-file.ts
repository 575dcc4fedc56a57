/**
 * Reading the port file and the token file: a small regular file, bounded in size and time. A FIFO
 * nobody writes would block a plain read for good, /dev/zero would never end, a directory is not a
 * value; so the file is opened non-blocking and checked with fstat (the file actually opened, not
 * the name, so a swap between a check and the read changes nothing) before a byte is read.
 */
import { constants } from "node:fs";
import { open } from "node:fs/promises";

export type FileProblem =
  | "missing"
  | "unreadable"
  | "fifo"
  | "directory"
  | "device"
  | "socket"
  | "not_regular"
  | "too_large"
  | "timeout";

export type SmallFileRead = { ok: true; text: string } | { ok: false; problem: FileProblem; code?: string };

export const MAX_SMALL_FILE_BYTES = 4096;
/**
 * How long a read may be waited on. Only time this process was free to take the answer counts (see
 * readSmallFile): a process held up by its own start or by a loaded machine is not a slow file.
 * 5 s: a 43-byte file read on a 2-core machine running eight test suites took over 1 s of wall time.
 */
export const SMALL_FILE_TIMEOUT_MS = 5_000;
/** How often the wait is measured; a gap longer than two of these is this process held up, not the read. */
const WAIT_TICK_MS = 100;

/** What each problem is, said for a person (after "the file at <path> "). */
export const FILE_PROBLEM_TEXT: Readonly<Record<FileProblem, string>> = {
  missing: "does not exist",
  unreadable: "could not be read",
  fifo: "is a named pipe (FIFO), not a regular file, so it was not read",
  directory: "is a directory, not a regular file",
  device: "is a device, not a regular file, so it was not read",
  socket: "is a socket, not a regular file, so it was not read",
  not_regular: "is not a regular file, so it was not read",
  too_large: `is larger than ${MAX_SMALL_FILE_BYTES} bytes, far more than it should hold, so it was not read`,
  timeout: `could not be read: the read was not done after ${SMALL_FILE_TIMEOUT_MS / 1000} s of this process waiting for it (time this process was itself held up is not counted)`,
};

function errnoCode(error: unknown): string | undefined {
  const code = error !== null && typeof error === "object" ? (error as { code?: unknown }).code : undefined;
  return typeof code === "string" ? code : undefined;
}

function kindOf(stats: import("node:fs").Stats): FileProblem | undefined {
  if (stats.isFile()) return undefined;
  if (stats.isFIFO()) return "fifo";
  if (stats.isDirectory()) return "directory";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "device";
  if (stats.isSocket()) return "socket";
  return "not_regular";
}

async function readBounded(path: string, maxBytes: number): Promise<SmallFileRead> {
  let handle: import("node:fs/promises").FileHandle;
  try {
    // O_NONBLOCK: opening a FIFO for reading returns at once instead of waiting for a writer.
    handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = errnoCode(error);
    if (code === "ENOENT" || code === "ENOTDIR") return { ok: false, problem: "missing", code };
    if (code === "EISDIR") return { ok: false, problem: "directory", code };
    return { ok: false, problem: "unreadable", ...(code ? { code } : {}) };
  }
  try {
    const problem = kindOf(await handle.stat());
    if (problem) return { ok: false, problem };
    const buffer = Buffer.alloc(maxBytes + 1);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    if (filled > maxBytes) return { ok: false, problem: "too_large" };
    return { ok: true, text: buffer.subarray(0, filled).toString("utf8") };
  } catch (error) {
    const code = errnoCode(error);
    return { ok: false, problem: "unreadable", ...(code ? { code } : {}) };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * Read a small regular file, or say why not; never waits past timeoutMs of this process's free time.
 * The wait is measured in ticks: a tick that comes late (the event loop was blocked, or the machine
 * gave this process no turn) counts as two ticks at most, so a start-up that holds the process for
 * a second, or a loaded machine, does not use up the budget a stalled disk is judged by.
 */
export async function readSmallFile(
  path: string,
  maxBytes = MAX_SMALL_FILE_BYTES,
  timeoutMs = SMALL_FILE_TIMEOUT_MS,
): Promise<SmallFileRead> {
  let ticker: NodeJS.Timeout | undefined;
  const late = new Promise<SmallFileRead>((resolve) => {
    let waited = 0;
    let last = performance.now();
    ticker = setInterval(
      () => {
        const now = performance.now();
        waited += Math.min(now - last, 2 * WAIT_TICK_MS);
        last = now;
        if (waited >= timeoutMs) resolve({ ok: false, problem: "timeout" });
      },
      Math.min(WAIT_TICK_MS, timeoutMs),
    );
    ticker.unref();
  });
  try {
    return await Promise.race([readBounded(path, maxBytes), late]);
  } finally {
    clearInterval(ticker);
  }
}
