/**
 * What waits for this resmon's route list (issue 42): a read of a route every resmon line serves is
 * sent at once and the list is read after it; a write, or a route a newer line added, waits for the
 * list and is judged by it before anything is sent (the version gap). The route list is answered
 * by the test, so the order is explicit: no timer decides.
 */
import { AnswerHeaders, type ApiResult, type ResmonClient, type ViewOptions } from "@resmon/api-client";
import { describe, expect, it } from "vitest";
import { Backend } from "../src/backend/adapter.js";
import { fakeClient, foundDiscovery, type SeenRequest } from "./helpers/fake-backend.js";

/** A fake resmon whose GET /openapi.json is recorded as sent and answered when the test says. */
function resmonWithRouteList() {
  const seen: SeenRequest[] = [];
  let answer: (paths: string[] | "gone") => void = () => undefined;
  let discoveries = 0;
  const routeList = new Promise<ApiResult<unknown>>((resolve) => {
    answer = (paths) =>
      resolve(
        paths === "gone"
          ? { ok: false, error: { kind: "transport", message: "connection refused" } }
          : {
              ok: true,
              status: 200,
              data: {
                openapi: "3.1.0",
                paths: Object.fromEntries(paths.map((p) => [p, { get: {}, post: {} }])),
              },
              headers: new AnswerHeaders(),
            },
      );
  });
  const client = (view?: ViewOptions): ResmonClient => ({
    ...fakeClient(() => ({ status: 200, body: { status: "ok" } }), seen, 51734, view),
    openApiDocument: () => {
      seen.push({ method: "GET", path: "/openapi.json", query: {}, pathParams: {}, body: undefined });
      return routeList;
    },
    within: (_ms: number, options?: ViewOptions) => client(options ?? view),
  });
  const backend = new Backend({
    env: {},
    timeoutMs: 60_000,
    discoverFn: async () => {
      discoveries += 1;
      return foundDiscovery(client());
    },
  });
  return {
    backend,
    seen,
    answer,
    discoveries: () => discoveries,
    sent: () => seen.map((r) => `${r.method} ${r.path}`),
  };
}

const settled = () => new Promise((r) => setImmediate(r));

describe("the route list and the first call", () => {
  it("a read every resmon line serves is answered without the route list, read when first needed", async () => {
    const { backend, answer, sent } = resmonWithRouteList();
    const call = backend.forCall();
    await expect(call.call((c) => c.GET("/api/routines"))).resolves.toEqual({ status: "ok" });
    await settled();
    expect(sent()).toEqual(["GET /api/routines"]);
    const learnt = call.resmon();
    await settled();
    expect(sent()).toEqual(["GET /api/routines", "GET /openapi.json"]);
    answer(["/api/routines"]);
    await expect(learnt).resolves.toMatchObject({ routesFrom: "openapi" });
    await backend.close();
  });

  it("a route a newer line added waits for the route list and, where it lacks the route, is not sent", async () => {
    const { backend, answer, sent } = resmonWithRouteList();
    const watchdog = backend.forCall().call((c) => c.GET("/api/watchdog"));
    const outcome = watchdog.then(
      () => "answered",
      (error: unknown) => (error as { detail?: { reason?: string } }).detail?.reason,
    );
    await settled();
    expect(sent()).toEqual(["GET /openapi.json"]);
    answer(["/api/routines", "/api/health"]);
    expect(await outcome).toBe("not_in_this_resmon");
    expect(sent()).toEqual(["GET /openapi.json"]);
    await backend.close();
  });

  it("a write waits for the route list, then is sent once", async () => {
    const { backend, answer, sent } = resmonWithRouteList();
    const created = backend.forCall().call((c) => c.POST("/api/routines", { body: {} as never }));
    await settled();
    expect(sent()).toEqual(["GET /openapi.json"]);
    answer(["/api/routines"]);
    await expect(created).resolves.toEqual({ status: "ok" });
    expect(sent()).toEqual(["GET /openapi.json", "POST /api/routines"]);
    await backend.close();
  });

  it("a route list that finds resmon gone drops the connection: the next call finds resmon afresh", async () => {
    const { backend, answer, discoveries } = resmonWithRouteList();
    const call = backend.forCall();
    await expect(call.call((c) => c.GET("/api/routines"))).resolves.toEqual({ status: "ok" });
    const learnt = call.resmon().catch((error: unknown) => (error as { code?: string }).code);
    answer("gone");
    expect(await learnt).toBe("backend_unavailable");
    await backend.forCall().call((c) => c.GET("/api/health"));
    expect(discoveries()).toBe(2);
    await backend.close();
  });
});
