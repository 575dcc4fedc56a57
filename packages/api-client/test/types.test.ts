/**
 * Compile-time checks of the client's typing (checked by `tsc -p tsconfig.json`): for a sample of
 * operations in each group, a correct call compiles, and a wrong path, a missing required
 * parameter or a wrong body does not (each `@ts-expect-error` fails the build if the line compiles).
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import type { ApiError, ResmonClient, ResponseBodyOf, StreamResult } from "../src/index.js";

type Row = ResponseBodyOf<"/api/routines", "get">[number];
type Run = ResponseBodyOf<"/api/routines/{routine_id}/run", "post">;

/** Never run: it exists so the compiler checks these calls. */
async function compileOnly(client: ResmonClient): Promise<void> {
  // health and the tools' routes
  await client.GET("/api/health");
  await client.GET("/api/routines/{routine_id}", { params: { path: { routine_id: 1 } } });
  await client.POST("/api/search/sweep", { body: { query: "q", repositories: ["arxiv"] } });
  await client.PUT("/api/settings/ai", { body: { settings: { ai_model: "m" } } });
  // @ts-expect-error a path parameter is required
  await client.GET("/api/routines/{routine_id}");
  // @ts-expect-error the sweep needs repositories
  await client.POST("/api/search/sweep", { body: { query: "q" } });
  // @ts-expect-error no such route in resmon 2.3
  await client.GET("/api/admin/reset");
  // @ts-expect-error resmon serves no DELETE on the routine list
  await client.DELETE("/api/routines");

  // routines
  await client.PUT("/api/routines/{routine_id}", {
    params: { path: { routine_id: 1 } },
    body: { name: "n" },
  });
  await client.DELETE("/api/routines/{routine_id}", { params: { path: { routine_id: 1 } } });
  await client.PUT("/api/routines/{routine_id}", {
    params: { path: { routine_id: 1 } },
    // @ts-expect-error is_active is a boolean
    body: { is_active: 1 },
  });
  // @ts-expect-error routine_id is an integer
  await client.DELETE("/api/routines/{routine_id}", { params: { path: { routine_id: "1" } } });

  // executions
  await client.GET("/api/executions/{exec_id}/progress/events", { params: { path: { exec_id: 3 } } });
  await client.POST("/api/executions/{exec_id}/cancel", { params: { path: { exec_id: 3 } } });
  await client.POST("/api/executions/export", { body: { ids: [1, 2] } });
  // @ts-expect-error the export needs ids
  await client.POST("/api/executions/export", { body: {} });
  // @ts-expect-error not a route: progress events live under an execution
  await client.GET("/api/executions/progress/events");

  // settings
  await client.PUT("/api/settings/execution", {
    body: { max_concurrent_executions: 2, routine_fire_queue_limit: 8 },
  });
  // @ts-expect-error both limits are required
  await client.PUT("/api/settings/execution", { body: { max_concurrent_executions: 2 } });
  // @ts-expect-error a settings write takes {settings: {...}}
  await client.PUT("/api/settings/cloud", { body: { cloud_provider: "drive" } });

  // reading queue
  await client.GET("/api/reading-queue", { params: { query: { status: "read", limit: 10 } } });
  await client.POST("/api/reading-queue", { body: { document_id: 4 } });
  await client.PUT("/api/reading-queue/{document_id}", {
    params: { path: { document_id: 4 } },
    body: { status: "read" },
  });
  // @ts-expect-error the status body is required
  await client.PUT("/api/reading-queue/{document_id}", { params: { path: { document_id: 4 } } });
  // @ts-expect-error document_id is an integer
  await client.POST("/api/reading-queue", { body: { document_id: "4" } });

  // profiles
  await client.DELETE("/api/profiles/{profile_id}", { params: { path: { profile_id: 2 } } });
  await client.GET("/api/profiles/{profile_id}/lifecycle", {
    params: { path: { profile_id: 2 }, query: { limit: 5 } },
  });
  // @ts-expect-error the profile id is required
  await client.GET("/api/profiles/{profile_id}/export", { params: { path: {} } });

  // assistant
  await client.POST("/api/assistant/sessions", { body: { title: "t" } });
  await client.POST("/api/assistant/sessions/{session_id}/messages", {
    params: { path: { session_id: 1 } },
    body: { text: "hello" },
  });
  await client.POST("/api/assistant/sessions/{session_id}/messages", {
    params: { path: { session_id: 1 } },
    // @ts-expect-error a message needs its text
    body: {},
  });
  // @ts-expect-error resmon serves no PUT on a session
  await client.PUT("/api/assistant/sessions/{session_id}", { params: { path: { session_id: 1 } } });

  // evidence
  await client.GET("/api/evidence/projects/{project_id}", { params: { path: { project_id: "p1" } } });
  await client.PATCH("/api/evidence/projects/{project_id}", { params: { path: { project_id: "p1" } } });
  // @ts-expect-error the project id is a string
  await client.GET("/api/evidence/projects/{project_id}", { params: { path: { project_id: 1 } } });
  // @ts-expect-error a note lives under a project
  await client.GET("/api/evidence/notes");

  // library
  await client.GET("/api/library/files/{file_id}/text", {
    params: { path: { file_id: "f" }, query: { expected_vault_id: "v", expected_version_id: "x" } },
  });
  await client.POST("/api/library/vault", { body: { parent_directory: "/tmp" } });
  await client.GET("/api/library/files/{file_id}/text", {
    // @ts-expect-error both expected ids are required
    params: { path: { file_id: "f" }, query: { expected_vault_id: "v" } },
  });
  // @ts-expect-error the vault needs its parent directory
  await client.POST("/api/library/vault", { body: {} });

  // admin
  await client.POST("/api/admin/factory-reset", { body: { confirm: "RESET" } });
  await client.POST("/api/admin/erase-ai-keys");
  // @ts-expect-error confirm is a string
  await client.POST("/api/admin/factory-reset", { body: { confirm: true } });
  // @ts-expect-error admin routes are POSTs
  await client.GET("/api/admin/factory-reset");

  // configurations and credentials
  await client.POST("/api/configurations", { body: { name: "n", config_type: "manual", parameters: {} } });
  await client.PUT("/api/credentials/{key_name}", {
    params: { path: { key_name: "ieee" } },
    body: { value: "v" },
  });
  // @ts-expect-error a configuration needs its parameters
  await client.POST("/api/configurations", { body: { name: "n", config_type: "manual" } });
  // @ts-expect-error a credential needs its value
  await client.PUT("/api/credentials/{key_name}", { params: { path: { key_name: "ieee" } }, body: {} });

  // streaming takes the same typed request
  const streamed: StreamResult = await client.stream("GET", "/api/executions/{exec_id}/references", {
    params: { path: { exec_id: 1 }, query: { format: "bibtex" } },
    maxBytes: 1024,
  });
  void streamed;
  // @ts-expect-error the same path parameter is required when streaming
  await client.stream("GET", "/api/executions/{exec_id}/references");
  // @ts-expect-error no such route to stream
  await client.stream("GET", "/api/backups/latest");
  // @ts-expect-error the method is named as the client's methods are
  await client.stream("get", "/api/health");
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

  it("types the answers established beyond the tools' routes", () => {
    type Queue = ResponseBodyOf<"/api/reading-queue", "get">;
    expectTypeOf<Queue["counts"]>().toEqualTypeOf<{ to_read: number; read: number; all: number }>();
    expectTypeOf<Queue["entries"][number]["status"]>().toEqualTypeOf<"to_read" | "read">();
    type Event = ResponseBodyOf<"/api/executions/{exec_id}/progress/events", "get">[number];
    expectTypeOf<Event["type"]>().toEqualTypeOf<string>();
    expectTypeOf<
      ResponseBodyOf<"/api/admin/factory-reset", "post">["settings_cleared"]
    >().toEqualTypeOf<number>();
    expectTypeOf<ResponseBodyOf<"/api/executions/active", "get">["active_ids"]>().toEqualTypeOf<number[]>();
    expectTypeOf<ResponseBodyOf<"/api/routines/{routine_id}", "delete">["success"]>().toEqualTypeOf<true>();
  });

  it("types an answer whose shape is not known as unknown", () => {
    expectTypeOf<ResponseBodyOf<"/api/assistant/sessions", "get">>().toEqualTypeOf<unknown>();
    expectTypeOf<ResponseBodyOf<"/api/evidence/projects", "post">>().toEqualTypeOf<unknown>();
    expectTypeOf<ResponseBodyOf<"/api/library", "get">>().toEqualTypeOf<unknown>();
  });

  it("errors are a tagged union on kind", () => {
    expectTypeOf<ApiError["kind"]>().toEqualTypeOf<
      "transport" | "timeout" | "too_large" | "http" | "malformed"
    >();
    expect(typeof compileOnly).toBe("function");
  });
});
