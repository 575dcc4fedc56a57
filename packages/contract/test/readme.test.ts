import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { TOOLS } from "../src/index.js";
import { REPO_ROOT } from "./support/shared.js";

const README = `${REPO_ROOT}contract/README.md`;

describe.skipIf(!existsSync(README))("contract/README.md", () => {
  it("lists every tool, in order, with its class and confirmation flag", () => {
    const text = readFileSync(README, "utf8");
    const rows = [...text.matchAll(/^\| `([a-z_]+)`\s*\| (read|write)\s*\| (true|false)\s*\|/gm)].map((m) => [
      m[1],
      m[2],
      m[3],
    ]);
    expect(rows).toEqual(TOOLS.map((t) => [t.name, t.kind, String(t.requiresConfirmation)]));
  });
});
