/** Compile-time checks of the client's typing (checked by `tsc -p tsconfig.json`). */
import { describe, expect, expectTypeOf, it } from "vitest";
import type { ApiError, ResmonClient, ResponseBodyOf } from "../src/index.js";

type Row = ResponseBodyOf<"/api/routines", "get">[number];
type Run = ResponseBodyOf<"/api/routines/{routine_id}/run", "post">;

/** Never run: it exists so the compiler checks these calls. */
async function compileOnly(client: ResmonClient): Promise<void> {
  await client.GET("/api/health");
  await client.GET("/api/routines/{routine_id}", { params: { path: { routine_id: 1 } } });
  await client.POST("/api/search/sweep", { body: { query: "q", repositories: ["arxiv"] } });
  await client.PUT("/api/settings/ai", { body: { settings: { ai_model: "m" } } });
  // @ts-expect-error a path parameter is required
  await client.GET("/api/routines/{routine_id}");
  // @ts-expect-error the sweep needs repositories
  await client.POST("/api/search/sweep", { body: { query: "q" } });
  // @ts-expect-error no route outside the description
  await client.GET("/api/admin/reset");
  // @ts-expect-error resmon serves no DELETE on the routine list
  await client.DELETE("/api/routines");
}

describe("the client's types follow the API description", () => {
  it("types success bodies by route and method", () => {
    expectTypeOf<Row["parameters"]>().toEqualTypeOf<string | null>();
    expectTypeOf<Row["missed_fires"]["count"]>().toEqualTypeOf<number>();
    expectTypeOf<ResponseBodyOf<"/api/health", "get">["status"]>().toEqualTypeOf<string>();
    expectTypeOf<Extract<Run, { queued: true }>["execution_id"]>().toEqualTypeOf<null>();
    expectTypeOf<ResponseBodyOf<"/api/executions/{exec_id}/references", "get">>().toExtend<
      unknown[] | string
    >();
    expectTypeOf<string>().toExtend<ResponseBodyOf<"/api/executions/{exec_id}/references", "get">>();
  });

  it("errors are a tagged union on kind", () => {
    expectTypeOf<ApiError["kind"]>().toEqualTypeOf<
      "transport" | "timeout" | "too_large" | "http" | "malformed"
    >();
    expect(typeof compileOnly).toBe("function");
  });
});
