import { describe, expect, it } from "vitest";
import { ERROR_CODES, isErrorCode } from "../src/index.js";
import { SPEC_TEXT } from "./support/shared.js";
import { specErrorCodes } from "./support/spec-tables.js";

describe("error codes", () => {
  it("are eight, distinct", () => {
    expect(new Set(ERROR_CODES).size).toBe(8);
    expect(isErrorCode("not_found")).toBe(true);
    expect(isErrorCode("teapot")).toBe(false);
  });

  it.skipIf(SPEC_TEXT === undefined)("are exactly the spec's", () => {
    expect([...ERROR_CODES]).toEqual(specErrorCodes(SPEC_TEXT ?? ""));
  });
});
