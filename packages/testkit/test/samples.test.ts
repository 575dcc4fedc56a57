import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DECLARED_ROUTES, type Testkit } from "../src/index.js";
import { call, obj, startKit } from "./helpers.js";
import { shapeDiff } from "./shape.js";

/** What the real backend answered (../shared beside the checkout); skipped when that folder is absent. */
const SAMPLES = join(dirname(fileURLToPath(import.meta.url)), "../../../../shared/resmon/samples");
const HAVE_SAMPLES = existsSync(SAMPLES);

interface Sample {
  file: string;
  request: { method: string; path: string; body: unknown; headers?: Record<string, string> };
  response: { status: number; headers: Record<string, string>; body: unknown };
}

const CAPTURED_RUNTIME_ID = "a557b1b5-0382-4f28-a866-3d5bb2700f73";
const WRITE = /^(POST__api_routines|POST__api_profiles|POST__api_search_sweep|PUT__)/;
const EXPLORER_OR_EXPORT = /^POST__api_(explorer|export)/;

function load(): Sample[] {
  if (!HAVE_SAMPLES) return [];
  const readme = readFileSync(join(SAMPLES, "README.md"), "utf8");
  return readdirSync(SAMPLES)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((file) => {
      const s = JSON.parse(readFileSync(join(SAMPLES, file), "utf8")) as Omit<Sample, "file">;
      return {
        file,
        ...s,
        afterWrites:
          readme.includes(`\`${file}\``) &&
          new RegExp(`\`${file.replace(/[.{}]/g, "\\$&")}\`[^\\n]*after writes`).test(readme),
      };
    })
    .sort((a, b) => rank(a) - rank(b) || a.file.localeCompare(b.file));
}

/** Replay in the capture's order: fixture reads, then the writes, then the reads made after them. */
function rank(s: Sample & { afterWrites?: boolean }): number {
  if (WRITE.test(s.file) && !EXPLORER_OR_EXPORT.test(s.file)) {
    if (s.file.startsWith("POST__api_routines.json")) return 1;
    if (s.file.includes("_activate") || s.file.includes("_deactivate")) return 2;
    if (s.file.includes("_run")) return 3;
    return 4;
  }
  return s.afterWrites ? 5 : 0;
}

describe.skipIf(!HAVE_SAMPLES)("every captured sample: same status, headers and shape", () => {
  let kit: Testkit;
  let done: () => Promise<void>;
  const ids = {
    routine: new Map<number, number>(),
    execution: new Map<number, number>(),
    profile: new Map<number, number>(),
  };
  const sweepIds = [11, 12, 13];

  beforeAll(async () => {
    ({ kit, done } = await startKit({ seed: "small" }));
    // The capture ran with nothing embedded and room for every run at once.
    kit.setSemanticAvailable(false);
    kit.setAdmission({ maxConcurrent: 8, runDurationMs: 20 });
  });
  afterAll(async () => done());

  function rewrite(path: string): string {
    return path
      .replace(CAPTURED_RUNTIME_ID, kit.runtimeId)
      .replace(/\/api\/routines\/(\d+)/, (m, id: string) => {
        const mapped = ids.routine.get(Number(id));
        return mapped ? `/api/routines/${mapped}` : m;
      })
      .replace(/\/api\/executions\/(\d+)/, (m, id: string) => {
        const mapped = ids.execution.get(Number(id));
        return mapped ? `/api/executions/${mapped}` : m;
      });
  }

  const samples = load();
  it("found the 124 samples", () => {
    expect(samples.length).toBe(124);
  });

  for (const sample of samples) {
    it(sample.file, async () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(sample.request.headers ?? {})) {
        if (k === "Host") headers.host = v.replace(":8811", `:${kit.port}`);
        else if (k === "Authorization")
          headers.authorization = v
            .replace("<token>", kit.token)
            .replace("<a wrong 43-char token>", "x".repeat(43));
        else headers[k.toLowerCase()] = v;
      }
      if (sample.request.headers && !sample.request.headers.Authorization) headers.authorization = "";
      const answer = await rawCall(
        kit,
        sample.request.method,
        rewrite(sample.request.path),
        sample.request.body,
        headers,
      );
      if (undeclaredIn(sample)) {
        // resmon ignored a parameter its OpenAPI does not declare; the testkit refuses it on purpose.
        expect(answer.status).toBe(400);
        expect(obj(obj(answer.json).detail).reason).toBe("testkit_undeclared");
        return;
      }
      expect(answer.status, `${sample.file}: ${answer.text.slice(0, 300)}`).toBe(sample.response.status);
      for (const h of ["content-type", "www-authenticate", "cache-control", "retry-after"]) {
        expect(answer.headers.get(h) ?? undefined, h).toBe(sample.response.headers[h]);
      }
      if (typeof sample.response.body === "string") {
        expect(typeof answer.text).toBe("string");
        expect(answer.text.length > 0).toBe(sample.response.body.length > 0);
      } else {
        expect(shapeDiff(sample.response.body, answer.json)).toEqual([]);
      }
      // Remember what the writes created, so later reads can ask for the same rows.
      const body = answer.json as Record<string, unknown> | null;
      if (sample.file === "POST__api_routines.json" && body) ids.routine.set(4, Number(body.id));
      if (sample.file === "POST__api_routines_{routine_id}_run.json" && body)
        ids.execution.set(10, Number(body.execution_id));
      if (sample.file.startsWith("POST__api_search_sweep") && answer.status === 200 && body) {
        const next = sweepIds.shift();
        if (next) ids.execution.set(next, Number(body.execution_id));
      }
      if (sample.file === "POST__api_profiles.json" && body) ids.profile.set(5, Number(obj(body).id));
    });
  }

  it("the replay reached every route of the tools a sample was captured for", () => {
    const reached = new Set(kit.requests.filter((r) => r.route).map((r) => `${r.method} ${r.route}`));
    const sampled = DECLARED_ROUTES.filter((r) => samples.some((s) => templateOf(s) === r)).map(
      (r) => `${r.method} ${r.path}`,
    );
    expect([...reached].sort()).toEqual(sampled.sort());
  });
});

/** The tools' route a sample's request was sent to. */
function templateOf(sample: Sample): (typeof DECLARED_ROUTES)[number] | undefined {
  const url = new URL(sample.request.path, "http://x");
  return DECLARED_ROUTES.find(
    (r) =>
      r.method === sample.request.method &&
      new RegExp(`^${r.path.replace(/\{\w+\}/g, "[^/]+")}$`).test(url.pathname),
  );
}

function undeclaredIn(sample: Sample): boolean {
  const url = new URL(sample.request.path, "http://x");
  const template = templateOf(sample);
  if (!template) return false;
  return [...url.searchParams.keys()].some((k) => !template.query.includes(k));
}

async function rawCall(
  kit: Testkit,
  method: string,
  path: string,
  body: unknown,
  headers: Record<string, string>,
) {
  if (headers.host) return hostCall(kit, method, path, headers);
  if (headers.authorization === "") {
    const { authorization: _drop, ...rest } = headers;
    const res = await fetch(`${kit.baseUrl}${path}`, { method, headers: rest });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, json: JSON.parse(text) as unknown };
  }
  return call(kit, method, path, body ?? undefined, headers);
}

/** fetch will not send a Host of our choosing; node:http will. */
async function hostCall(kit: Testkit, method: string, path: string, headers: Record<string, string>) {
  const http = await import("node:http");
  return new Promise<{ status: number; headers: Headers; text: string; json: unknown }>((resolve, reject) => {
    const sent = Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== ""));
    const req = http.request({ host: "127.0.0.1", port: kit.port, method, path, headers: sent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === "string") h.set(k, v);
        resolve({ status: res.statusCode ?? 0, headers: h, text, json: JSON.parse(text) as unknown });
      });
    });
    req.on("error", reject);
    req.end();
  });
}
