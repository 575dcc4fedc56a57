import { describe, expect, it } from "vitest";
import { defaultStateDir, resolvePortFile, resolveStateDir, tokenFileFor } from "../src/index.js";

describe("defaultStateDir", () => {
  it.each([
    ["darwin", {}, "/Users/ada", "/Users/ada/Library/Application Support/resmon"],
    ["linux", {}, "/home/ada", "/home/ada/.local/state/resmon"],
    ["linux", { XDG_STATE_HOME: "/xdg/state" }, "/home/ada", "/xdg/state/resmon"],
    ["linux", { XDG_STATE_HOME: "relative/state" }, "/home/ada", "/home/ada/.local/state/resmon"],
    ["freebsd", {}, "/home/ada", "/home/ada/.local/state/resmon"],
    [
      "win32",
      { LOCALAPPDATA: "C:\\Users\\ada\\AppData\\Local" },
      "C:\\Users\\ada",
      "C:\\Users\\ada\\AppData\\Local\\resmon",
    ],
    ["win32", {}, "C:\\Users\\ada", "C:\\Users\\ada\\AppData\\Local\\resmon"],
  ] as const)("%s %j %s", (platform, env, home, expected) => {
    expect(defaultStateDir(platform, env, home)).toBe(expected);
  });

  it("ignores RESMON_STATE_DIR; resolveStateDir honours it", () => {
    const env = { RESMON_STATE_DIR: "/srv/resmon-state" };
    expect(defaultStateDir("linux", env, "/home/ada")).toBe("/home/ada/.local/state/resmon");
    expect(resolveStateDir("linux", env, "/home/ada")).toBe("/srv/resmon-state");
    expect(resolveStateDir("linux", {}, "/home/ada")).toBe("/home/ada/.local/state/resmon");
  });
});

describe("resolvePortFile", () => {
  it("prefers RESMON_PORT_FILE, then RESMON_DB_PATH, then the default database's directory", () => {
    const home = "/home/ada";
    expect(
      resolvePortFile("linux", { RESMON_PORT_FILE: "/a/x.port", RESMON_DB_PATH: "/b/resmon.db" }, home),
    ).toEqual({
      path: "/a/x.port",
      source: "RESMON_PORT_FILE",
    });
    expect(resolvePortFile("linux", { RESMON_DB_PATH: "/b/resmon.db" }, home)).toEqual({
      path: "/b/resmon.port",
      source: "RESMON_DB_PATH",
    });
    expect(resolvePortFile("linux", {}, home)).toEqual({
      path: "/home/ada/.local/state/resmon/resmon.port",
      source: "default",
    });
  });

  it("never follows RESMON_STATE_DIR", () => {
    expect(resolvePortFile("linux", { RESMON_STATE_DIR: "/srv/state" }, "/home/ada").path).toBe(
      "/home/ada/.local/state/resmon/resmon.port",
    );
  });

  it("treats blank variables as unset", () => {
    expect(resolvePortFile("linux", { RESMON_PORT_FILE: "  ", RESMON_DB_PATH: "" }, "/h").source).toBe(
      "default",
    );
  });
});

it("names the token file api-token-<port> in the state directory", () => {
  expect(tokenFileFor("linux", "/srv/state", 51734)).toBe("/srv/state/api-token-51734");
  expect(tokenFileFor("win32", "C:\\state", 8811)).toBe("C:\\state\\api-token-8811");
});
