/**
 * The platform is a parameter of the scan's path functions, so a Linux or macOS answer must not
 * depend on the host's path module: here node:path is Windows' (as on the windows-latest runner), and
 * the POSIX answers must still be POSIX paths (issue 45).
 */
import { describe, expect, it, vi } from "vitest";

vi.mock("node:path", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:path")>();
  return { ...real.win32, posix: real.posix, win32: real.win32, default: real.win32 };
});

const { defaultScanDataDir, isFullPath } = await import("../src/data-dir.js");

describe("on a Windows host", () => {
  it("a Linux or macOS default data dir is still a POSIX path", () => {
    expect(defaultScanDataDir({}, "linux", "/home/u")).toBe("/home/u/.local/share/resmon-mcp/scans");
    expect(defaultScanDataDir({}, "darwin", "/Users/u")).toBe(
      "/Users/u/Library/Application Support/resmon-mcp/scans",
    );
    expect(
      defaultScanDataDir({ LOCALAPPDATA: "C:\\Users\\u\\AppData\\Local" }, "win32", "C:\\Users\\u"),
    ).toBe("C:\\Users\\u\\AppData\\Local\\resmon-mcp\\scans");
  });

  it("a POSIX platform's full path is judged by POSIX rules", () => {
    expect(isFullPath("C:\\scans", "linux")).toBe(false);
    expect(isFullPath("/scans", "linux")).toBe(true);
  });
});
