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

export const PACKAGE_VERSION = readPackageVersion();
