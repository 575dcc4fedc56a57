import { ScanError } from "../../src/index.js";

/** The ScanError a call was refused with; anything else (or no refusal at all) fails the test. */
export async function refused(p: Promise<unknown>): Promise<ScanError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ScanError) return e;
    throw e;
  }
  throw new Error("not refused");
}
