import { ToolError } from "@resmon/mcp-contract";

/** The ToolError a call was refused with; anything else (or no refusal at all) fails the test. */
export async function refused(p: Promise<unknown>): Promise<ToolError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ToolError) return e;
    throw e;
  }
  throw new Error("not refused");
}
