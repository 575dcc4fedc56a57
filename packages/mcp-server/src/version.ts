import { readFileSync } from "node:fs";

/** The package version, read from package.json beside dist/ (or src/ under tsx), never hard-coded twice. */
function readPackageVersion(): string {
  try {
    const text = readFileSync(new URL("../package.json", import.meta.url), "utf8");
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === "object" && "version" in parsed && typeof parsed.version === "string") {
      return parsed.version;
    }
  } catch {
    // Fall through: a missing package.json must not stop the server from starting.
  }
  return "0.0.0";
}

/** Set by build.mjs in the bundle, whose chunks do not sit beside package.json; absent under tsc and tsx. */
declare const __RESMON_PACKAGE_VERSION__: string | undefined;

export const PACKAGE_VERSION =
  typeof __RESMON_PACKAGE_VERSION__ === "string" ? __RESMON_PACKAGE_VERSION__ : readPackageVersion();
