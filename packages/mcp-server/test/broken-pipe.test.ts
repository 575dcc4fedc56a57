/** A reader that goes away (a harness that exits, `resmon-mcp doctor | head`) ends the process. */
import { spawn } from "node:child_process";
import { closeSync, existsSync, openSync } from "node:fs";
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

describe.skipIf(!existsSync(bin) || !existsSync("/dev/full"))("a failing output", () => {
  it("ends the server with one line on stderr when stdout fails with anything but EPIPE", async () => {
    // /dev/full answers every write with ENOSPC. Before, the error was ignored: the server went on
    // reading requests whose answers could never be written, and the harness waited for ever.
    const full = openSync("/dev/full", "w");
    const child = spawn(process.execPath, [bin], {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp" },
      stdio: ["pipe", full, "pipe"],
    });
    closeSync(full);
    let err = "";
    child.stderr?.on("data", (d: Buffer) => {
      err += d.toString();
    });
    child.stdin?.write(
      `${JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } },
      })}\n`,
    );
    const code = await new Promise<number | null>((done) => {
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        done(null);
      }, 10_000);
      child.on("exit", (c) => {
        clearTimeout(timer);
        done(c);
      });
    });
    expect(code, `the server did not end within 10 s; stderr: ${err}`).toBe(1);
    const lines = err.split("\n").filter((line) => line.includes("stdout failed"));
    expect(lines, err).toHaveLength(1);
    expect(lines[0]).toContain("ENOSPC");
  }, 15_000);
});
