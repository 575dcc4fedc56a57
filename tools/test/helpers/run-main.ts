import { vi } from "vitest";

/** Run a script's `main(args)` in process, its console.log/console.error lines caught as its output. */
export async function runMain(
  main: (args: string[]) => Promise<number>,
  args: string[],
): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const log = vi.spyOn(console, "log").mockImplementation((...a: unknown[]) => void lines.push(a.join(" ")));
  const err = vi
    .spyOn(console, "error")
    .mockImplementation((...a: unknown[]) => void lines.push(a.join(" ")));
  try {
    const code = await main(args);
    return { code, out: lines.join("\n") };
  } finally {
    log.mockRestore();
    err.mockRestore();
  }
}
