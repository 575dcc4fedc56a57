/** A reader that goes away (a harness that exits, `resmon-mcp doctor | head`) ends the process. */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const bin = resolve(fileURLToPath(new URL("..", import.meta.url)), "dist", "resmon-mcp.cjs");

describe.skipIf(!existsSync(bin))("a closed output pipe", () => {
  it("ends `doctor` promptly instead of looping on EPIPE", async () => {
    // stdout and stderr both go to a pipe that closes after the first line.
    const child = spawn("sh", ["-c", `node "${bin}" doctor 2>&1 | head -n 1`], {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp" },
      detached: true, // its own process group, so a failure can stop the spinning node too
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
    });
    const code = await new Promise<number | null>((done) => {
      const timer = setTimeout(() => {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
        done(null);
      }, 15_000);
      child.on("exit", (c) => {
        clearTimeout(timer);
        done(c);
      });
    });
    expect(code, "the pipeline did not end within 15 s").not.toBeNull();
    expect(out).toContain("resmon-mcp doctor");
  }, 20_000);
});
