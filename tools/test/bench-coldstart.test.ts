/**
 * How the bench times cold starts (issue 31): each sample ends only once its process has exited, so
 * the next one does not share the machine with its teardown, and the order turns each round, so no
 * build always comes right after the same other one.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cleanEnv } from "@resmon/testkit";
import { afterAll, describe, expect, it } from "vitest";
import { measureColdStart, serverOnce } from "../src/bench/coldstart.js";

const dir = mkdtempSync(join(tmpdir(), "resmon-bench-cold-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A server that answers the opening, notes its start, and takes 300 ms to exit once told to: by
 * SIGTERM, or by its stdin's end, whichever it sees first (on a busy machine the end can come first,
 * and a process with nothing left to wait for would exit at once).
 */
const SLOW_EXIT = [
  'const fs=require("node:fs"),log=(s)=>fs.appendFileSync(process.env.LOG,s+"\\n");',
  'log("start "+process.argv[1]);let b="";process.stdin.setEncoding("utf8");',
  'process.stdin.on("data",(d)=>{b+=d;let i;while((i=b.indexOf("\\n"))>=0){const m=JSON.parse(b.slice(0,i));b=b.slice(i+1);',
  'if(m.id!==undefined)process.stdout.write(JSON.stringify({jsonrpc:"2.0",id:m.id,result:{}})+"\\n")}});',
  'const bye=()=>setTimeout(()=>{log("exited "+process.argv[1]);process.exit(0)},300);',
  'process.stdin.on("end",bye);process.on("SIGTERM",bye);',
].join("");
const launch = (label: string) => ({ command: process.execPath, args: ["-e", SLOW_EXIT, label] });

describe("cold-start samples", () => {
  it("end once the process has exited", async () => {
    const env = cleanEnv({ LOG: join(dir, "exit.log") });
    await serverOnce(launch("A"), env);
    expect(readFileSync(env.LOG as string, "utf8").split("\n")).toContain("exited A");
  }, 30_000);

  it("come in an order that turns each round", async () => {
    const env = cleanEnv({ LOG: join(dir, "order.log") });
    const rounds = 3;
    await measureColdStart(
      [
        { label: "A", launch: launch("A") },
        { label: "B", launch: launch("B") },
      ],
      env,
      rounds,
    );
    const starts = readFileSync(env.LOG as string, "utf8")
      .split("\n")
      .filter((line) => line.startsWith("start "))
      .map((line) => line.slice(6))
      .slice(2); // the unmeasured warm-up of each
    const perRound = Array.from({ length: rounds }, (_, r) => starts.slice(2 * r, 2 * r + 2).join(""));
    expect(perRound).toContain("AB");
    expect(perRound).toContain("BA");
  }, 60_000);
});
