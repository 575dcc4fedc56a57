import type { ToolArgs, ToolResult } from "@resmon/mcp-contract";
import type {
  ScanContinueArgs,
  ScanEnvelope,
  ScanResultArgs,
  ScanStartArgs,
  ScanVerifyArgs,
} from "@resmon/scan";
import { describe, expectTypeOf, it } from "vitest";

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
