/** The memory floor: RSS of a bare node that has started and answered one line on stdin. */
import { spawn } from "node:child_process";
import { rssMiB } from "./stats.js";

const ECHO = "process.stdin.setEncoding('utf8');process.stdin.on('data',d=>process.stdout.write(d))";

export async function floorRssMiB(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ECHO], { stdio: ["pipe", "pipe", "ignore"] });
  await new Promise<void>((resolve) => {
    child.stdout.once("data", () => resolve());
    child.stdin.write("ping\n");
  });
  const rss = await rssMiB(child.pid ?? -1);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.stdin.end();
  await exited;
  return rss;
}
