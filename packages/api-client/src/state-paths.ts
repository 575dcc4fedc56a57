/** Where resmon keeps its state, its port file and its token files (facts.md §1–2). */
import { homedir as osHomedir } from "node:os";
import path from "node:path";

export type Env = Readonly<Record<string, string | undefined>>;

function pathFor(platform: NodeJS.Platform): path.PlatformPath {
  return platform === "win32" ? path.win32 : path.posix;
}

function named(env: Env, key: string): string | undefined {
  const value = env[key];
  return value !== undefined && value.trim().length > 0 ? value.trim() : undefined;
}

/**
 * The platform's default state directory, ignoring RESMON_STATE_DIR: macOS
 * ~/Library/Application Support/resmon; Windows %LOCALAPPDATA%\resmon (else ~\AppData\Local\resmon);
 * elsewhere $XDG_STATE_HOME/resmon (else ~/.local/state/resmon).
 */
export function defaultStateDir(platform: NodeJS.Platform, env: Env, homedir: string): string {
  const p = pathFor(platform);
  if (platform === "darwin") return p.join(homedir, "Library", "Application Support", "resmon");
  if (platform === "win32") {
    const local = named(env, "LOCALAPPDATA");
    return local ? p.join(local, "resmon") : p.join(homedir, "AppData", "Local", "resmon");
  }
  const xdg = named(env, "XDG_STATE_HOME");
  return xdg && p.isAbsolute(xdg) ? p.join(xdg, "resmon") : p.join(homedir, ".local", "state", "resmon");
}

/** Where the token files are: RESMON_STATE_DIR, else the platform default. Never where the port file is. */
export function resolveStateDir(platform: NodeJS.Platform, env: Env, homedir: string): string {
  const explicit = named(env, "RESMON_STATE_DIR");
  return explicit ? pathFor(platform).resolve(explicit) : defaultStateDir(platform, env, homedir);
}

export type PortFileSource = "RESMON_PORT_FILE" | "RESMON_DB_PATH" | "default";

/** The port file: RESMON_PORT_FILE, else resmon.port beside RESMON_DB_PATH, else beside the packaged app's DB. */
export function resolvePortFile(
  platform: NodeJS.Platform,
  env: Env,
  homedir: string,
): { path: string; source: PortFileSource } {
  const p = pathFor(platform);
  const explicit = named(env, "RESMON_PORT_FILE");
  if (explicit) return { path: p.resolve(explicit), source: "RESMON_PORT_FILE" };
  const db = named(env, "RESMON_DB_PATH");
  if (db) return { path: p.join(p.dirname(p.resolve(db)), "resmon.port"), source: "RESMON_DB_PATH" };
  return { path: p.join(defaultStateDir(platform, env, homedir), "resmon.port"), source: "default" };
}

export function tokenFileFor(platform: NodeJS.Platform, stateDir: string, port: number): string {
  return pathFor(platform).join(stateDir, `api-token-${port}`);
}

export function currentHomedir(): string {
  return osHomedir();
}
