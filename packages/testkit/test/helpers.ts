import { mkdtempSync, rmSync } from "node:fs";
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
  const res = await fetch(`${kit.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${kit.token}`,
      accept: "application/json",
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: res.status, headers: res.headers, text, json };
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
