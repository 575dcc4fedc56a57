import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestkit, type Testkit, type TestkitOptions } from "../src/index.js";

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "resmon-testkit-"));
}

export async function startKit(
  opts: Partial<TestkitOptions> = {},
): Promise<{ kit: Testkit; dir: string; done: () => Promise<void> }> {
  const dir = tempDir();
  const kit = await startTestkit({ stateDir: dir, seed: "small", ...opts });
  return {
    kit,
    dir,
    done: async () => {
      await kit.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function call(
  kit: Testkit,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  // A fresh connection per request (agent: false): a pooled keep-alive socket can be closed by a
  // restart or an idle timeout just as the next request goes out, which would make these tests race.
  const res = await new Promise<{ status: number; headers: Headers; text: string }>((resolve, reject) => {
    const req = request(
      `${kit.baseUrl}${path}`,
      {
        method,
        agent: false,
        headers: {
          authorization: `Bearer ${kit.token}`,
          accept: "application/json",
          ...(payload === undefined
            ? {}
            : { "content-type": "application/json", "content-length": String(Buffer.byteLength(payload)) }),
          ...headers,
        },
      },
      (r) => {
        const chunks: Buffer[] = [];
        r.on("data", (c: Buffer) => chunks.push(c));
        r.on("end", () => {
          const h = new Headers();
          for (const [k, v] of Object.entries(r.headers)) {
            if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(", ") : v);
          }
          resolve({ status: r.statusCode ?? 0, headers: h, text: Buffer.concat(chunks).toString("utf8") });
        });
        r.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
  let json: unknown = null;
  try {
    json = JSON.parse(res.text);
  } catch {
    json = null;
  }
  return { status: res.status, headers: res.headers, text: res.text, json };
}

/** A JSON object with string keys, for reading answers in tests. */
export type Obj = Record<string, unknown>;

export function obj(x: unknown): Obj {
  if (typeof x !== "object" || x === null || Array.isArray(x))
    throw new Error(`not an object: ${JSON.stringify(x)}`);
  return x as Obj;
}

export function arr(x: unknown): unknown[] {
  if (!Array.isArray(x)) throw new Error(`not an array: ${JSON.stringify(x)}`);
  return x;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
