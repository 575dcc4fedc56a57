import { QUERY_KINDS, REQUIRED_QUERY_KINDS, type ToolArgs, type ToolResult } from "@resmon/mcp-contract";
import {
  QUERY_KINDS as ENGINE_QUERY_KINDS,
  REQUIRED_QUERY_KINDS as ENGINE_REQUIRED_QUERY_KINDS,
  type ScanContinueArgs,
  type ScanEnvelope,
  type ScanResultArgs,
  type ScanStartArgs,
  type ScanVerifyArgs,
} from "@resmon/scan";
import { describe, expect, expectTypeOf, it } from "vitest";

// The engine knows no MCP, so it names the query kinds itself; the server, which knows both, holds
// the two lists to each other (the types below cannot see which kinds a plan must carry).
describe("the engine and the contract", () => {
  it("name the same query kinds, and require the same ones of a plan", () => {
    expect([...ENGINE_QUERY_KINDS]).toEqual([...QUERY_KINDS]);
    expect([...ENGINE_REQUIRED_QUERY_KINDS]).toEqual([...REQUIRED_QUERY_KINDS]);
  });
});

/**
 * The contract's four scan rows parse to exactly the engine's argument types (SCAN-INTERFACE.md),
 * so the handlers pass them on without a cast. Checked by tsc (`pnpm typecheck`): a field that
 * differs in name, optionality or type is a compile error here.
 */
describe("the scan rows' schemas infer to the engine's types", () => {
  it("arguments", () => {
    expectTypeOf<ToolArgs<"scan_start">>().toEqualTypeOf<ScanStartArgs>();
    expectTypeOf<ToolArgs<"scan_continue">>().toEqualTypeOf<ScanContinueArgs>();
    expectTypeOf<ToolArgs<"scan_verify">>().toEqualTypeOf<ScanVerifyArgs>();
    expectTypeOf<ToolArgs<"scan_result">>().toEqualTypeOf<ScanResultArgs>();
  });

  it("the rows' envelope names the engine's phases and next actions", () => {
    type Row = ToolResult<"scan_start">;
    expectTypeOf<Row["phase"]>().toEqualTypeOf<ScanEnvelope["phase"]>();
    expectTypeOf<Row["next_action"]>().toEqualTypeOf<ScanEnvelope["next_action"]>();
    expectTypeOf<Row["status"]>().toEqualTypeOf<ScanEnvelope["status"]>();
    expectTypeOf<Row["replayed"]>().toEqualTypeOf<ScanEnvelope["replayed"]>();
    expectTypeOf<ToolResult<"scan_result">>().toEqualTypeOf<Row>();
  });
});
