import { homedir } from "node:os";
import { posix, win32 } from "node:path";

/**
 * Whether `path` names one place whatever directory the process starts in. On Windows that takes a
 * drive (`C:\…`) or a UNC share (`\\server\share\…`): `\scans` and `/scans` are on whichever
 * drive the harness runs from, and `C:scans` is relative to that drive's current directory, though
 * path.win32 calls the first two absolute.
 */
export function isFullPath(path: string, platform: NodeJS.Platform = process.platform): boolean {
  if (platform === "win32") return /^(?:[A-Za-z]:[\\/]|[\\/]{2}[^\\/])/.test(path);
  return posix.isAbsolute(path);
}

/**
 * Where scan state lives when nothing names it: the platform's user data dir + resmon-mcp/scans
 * ($XDG_DATA_HOME or ~/.local/share on Linux, ~/Library/Application Support on macOS, %LOCALAPPDATA% on
 * Windows). RESMON_MCP_SCAN_DATA is the server's to parse (mcp-server's config.ts), not this library's.
 */
export function defaultScanDataDir(
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  if (platform === "win32") {
    const base = env.LOCALAPPDATA?.trim() || win32.join(home, "AppData", "Local");
    return win32.join(base, "resmon-mcp", "scans");
  }
  // POSIX paths for POSIX platforms whatever this process runs on (the platform is a parameter).
  if (platform === "darwin") return posix.join(home, "Library", "Application Support", "resmon-mcp", "scans");
  const xdg = env.XDG_DATA_HOME?.trim();
  // XDG says a relative XDG_DATA_HOME is invalid and must be ignored.
  const base = xdg?.startsWith("/") ? xdg : posix.join(home, ".local", "share");
  return posix.join(base, "resmon-mcp", "scans");
}
