import { existsSync, readFileSync, statSync } from "node:fs";
import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { call, obj, startKit } from "./helpers.js";

function raw(
  port: number,
  headers: Record<string, string | string[]>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: "/api/health", headers }, (res) => {
      let body = "";
      res.on("data", (c: Buffer) => {
        body += c.toString();
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

const reason = (body: string) => obj(obj(JSON.parse(body)).detail).reason;

describe("the guard, in resmon's order", () => {
  let done: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await done?.();
    done = undefined;
  });

  it("accepts 127.0.0.1 and localhost on its own port, refuses any other Host first", async () => {
    const s = await startKit();
    done = s.done;
    const auth = `Bearer ${s.kit.token}`;
    expect((await raw(s.kit.port, { host: `localhost:${s.kit.port}`, authorization: auth })).status).toBe(
      200,
    );
    const otherPort = await raw(s.kit.port, { host: `127.0.0.1:${s.kit.port + 1}` });
    expect(otherPort.status).toBe(403);
    expect(reason(otherPort.body)).toBe("host_refused");
  });

  it("refuses a foreign Origin, and admits the app's own", async () => {
    const s = await startKit();
    done = s.done;
    expect(
      (await call(s.kit, "GET", "/api/health", undefined, { origin: "http://evil.example" })).status,
    ).toBe(403);
    expect((await call(s.kit, "GET", "/api/health", undefined, { origin: "app://resmon" })).status).toBe(200);
  });

  it("answers token_invalid for two Authorization headers, a wrong scheme and a refused token", async () => {
    const s = await startKit();
    done = s.done;
    const host = `127.0.0.1:${s.kit.port}`;
    const good = `Bearer ${s.kit.token}`;
    expect(reason((await raw(s.kit.port, { host, authorization: [good, good] })).body)).toBe("token_invalid");
    expect(reason((await raw(s.kit.port, { host, authorization: `Basic ${s.kit.token}` })).body)).toBe(
      "token_invalid",
    );
    s.kit.refuseAllTokens(true);
    const refused = await call(s.kit, "GET", "/api/health");
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="resmon"');
    s.kit.refuseAllTokens(false);
    expect((await call(s.kit, "GET", "/api/health")).status).toBe(200);
  });

  it("records refusals without the token", async () => {
    const s = await startKit();
    done = s.done;
    await call(s.kit, "GET", "/api/health");
    const entry = s.kit.requests[0];
    expect(entry?.headers.authorization).toBe("<redacted>");
    expect(JSON.stringify(s.kit.requests)).not.toContain(s.kit.token);
    const { inspect } = await import("node:util");
    expect(inspect(s.kit, { depth: 4 })).not.toContain(s.kit.token);
    expect(JSON.stringify(s.kit)).not.toContain(s.kit.token);
  });
});

describe("token and port files", () => {
  it("writes a 43-character owner-only token and the port file, and removes both on a clean stop", async () => {
    const s = await startKit();
    const { kit } = s;
    expect(kit.tokenFile).toBe(`${s.dir}/api-token-${kit.port}`);
    const token = readFileSync(kit.tokenFile, "utf8");
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(token).toBe(kit.token);
    expect(statSync(kit.tokenFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(`${s.dir}/resmon.port`, "utf8").trim()).toBe(String(kit.port));
    await s.done();
    expect(existsSync(kit.tokenFile)).toBe(false);
    expect(existsSync(`${s.dir}/resmon.port`)).toBe(false);
  });

  it("leaves stale files on a crash; a stale token is refused after a restart", async () => {
    const s = await startKit();
    const { kit } = s;
    const before = { token: kit.token, runtime: kit.runtimeId, port: kit.port };
    await kit.restart();
    expect(kit.port).toBe(before.port);
    expect(kit.token).not.toBe(before.token);
    expect(kit.runtimeId).not.toBe(before.runtime);
    expect(readFileSync(kit.tokenFile, "utf8")).toBe(kit.token);
    const stale = await call(kit, "GET", "/api/health", undefined, {
      authorization: `Bearer ${before.token}`,
    });
    expect(stale.status).toBe(401);
    expect(reason(stale.text)).toBe("token_invalid");
    await kit.crash();
    expect(existsSync(kit.tokenFile)).toBe(true);
    expect(existsSync(`${s.dir}/resmon.port`)).toBe(true);
    await expect(fetch(`${kit.baseUrl}/api/health`)).rejects.toThrow();
    await s.done();
  });

  it("writes no port file when told not to, and a port file where it is told", async () => {
    const none = await startKit({ portFile: null });
    expect(none.kit.portFile).toBeNull();
    expect(existsSync(`${none.dir}/resmon.port`)).toBe(false);
    await none.done();
    const elsewhere = await startKit({ portFile: `${none.dir}-elsewhere.port` });
    expect(readFileSync(`${none.dir}-elsewhere.port`, "utf8").trim()).toBe(String(elsewhere.kit.port));
    await elsewhere.done();
    expect(existsSync(`${none.dir}-elsewhere.port`)).toBe(false);
  });
});
