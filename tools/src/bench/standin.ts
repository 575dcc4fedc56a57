/**
 * The stand-in resmon in a process of its own, as the real resmon always is. Per-call figures
 * compare a tool call (harness → server → resmon → server → harness) with the same request made
 * directly (harness → resmon → harness); with the stand-in inside the benchmark's own process, the
 * direct request would never leave that process, a path no harness has. The child reports the
 * connections it accepts (by remote port) over IPC, so connection reuse is still counted.
 */
import { type ChildProcess, fork } from "node:child_process";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { readFileSync } from "node:fs";
import type { Socket } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** What the per-call measurement needs of a backend, wherever it runs. */
export interface BenchBackend {
  readonly port: number;
  readonly token: string;
  readonly stateDir: string;
  readonly portFile: string | null;
  /** Drop the stand-in's request log (it grows with every call). */
  clearRequests(): void;
  /** Remote ports of every connection the stand-in accepted so far, in order. */
  acceptedRemotePorts(): Promise<number[]>;
}

export interface StandinProcess extends BenchBackend {
  readonly pid: number;
  stop(): Promise<void>;
}

/**
 * Records the remote port of every connection a listener on `port()` accepts (Node's net
 * diagnostics channel sees the server side of each accept in this process).
 */
export function recordAccepted(port: () => number): { ports: number[]; dispose(): void } {
  const ports: number[] = [];
  const onAccept = (message: unknown) => {
    const socket = (message as { socket?: Socket }).socket;
    if (socket?.localPort === port() && socket.remotePort !== undefined) ports.push(socket.remotePort);
  };
  subscribe("net.server.socket", onAccept);
  return { ports, dispose: () => unsubscribe("net.server.socket", onAccept) };
}

type ToChild = { type: "clear" } | { type: "accepted"; seq: number };
type FromChild =
  | { type: "ready"; port: number; portFile: string | null }
  | { type: "accepted"; seq: number; ports: number[] }
  | { type: "error"; message: string };

export async function startStandinProcess(stateDir: string): Promise<StandinProcess> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ["--child", stateDir], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const ready = await new Promise<{ port: number; portFile: string | null }>((resolve, reject) => {
    child.once("message", (m: FromChild) => {
      if (m.type === "ready") resolve(m);
      else reject(new Error(`the stand-in did not start: ${m.type === "error" ? m.message : m.type}`));
    });
    child.once("exit", (code) => reject(new Error(`the stand-in exited (${code}) before it was ready`)));
  });
  const token = readFileSync(join(stateDir, `api-token-${ready.port}`), "utf8").trim();
  let seq = 0;
  const send = (m: ToChild) => child.send(m);
  return {
    port: ready.port,
    portFile: ready.portFile,
    stateDir,
    token,
    pid: child.pid ?? -1,
    clearRequests: () => send({ type: "clear" }),
    acceptedRemotePorts: () =>
      new Promise((resolve) => {
        seq += 1;
        const asked = seq;
        const onMessage = (m: FromChild) => {
          if (m.type === "accepted" && m.seq === asked) {
            child.off("message", onMessage);
            resolve(m.ports);
          }
        };
        child.on("message", onMessage);
        send({ type: "accepted", seq: asked });
      }),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

async function child(stateDir: string): Promise<void> {
  const { startTestkit } = await import("@resmon/testkit");
  const post = (m: FromChild) => process.send?.(m);
  let port = 0;
  const accepted = recordAccepted(() => port);
  try {
    const kit = await startTestkit({ stateDir, seed: "demo" });
    port = kit.port;
    process.on("message", (m: ToChild) => {
      if (m.type === "clear") kit.clearRequests();
      else if (m.type === "accepted") post({ type: "accepted", seq: m.seq, ports: accepted.ports });
    });
    // The parent going away (or SIGTERM) ends the stand-in.
    process.on("disconnect", () => void kit.stop().finally(() => process.exit(0)));
    process.on("SIGTERM", () => void kit.stop().finally(() => process.exit(0)));
    post({ type: "ready", port: kit.port, portFile: kit.portFile });
  } catch (error) {
    post({ type: "error", message: error instanceof Error ? error.message : String(error) });
    process.exit(1);
  }
}

if (process.argv[2] === "--child" && process.argv[3]) await child(process.argv[3]);
