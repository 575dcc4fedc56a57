import { describe, expect, it } from "vitest";
import { classifyNetworkError } from "../src/transport.js";

const BASE = "http://127.0.0.1:51734";
const withCode = (code: string, nested = false) => {
  const inner = Object.assign(new Error("inner"), { code });
  return nested ? new TypeError("fetch failed", { cause: inner }) : inner;
};

describe("classifyNetworkError", () => {
  it("a connect timeout is a timeout carrying the connect timeout", () => {
    expect(classifyNetworkError(withCode("UND_ERR_CONNECT_TIMEOUT"), BASE, 3_000)).toEqual({
      kind: "timeout",
      timeoutMs: 3_000,
      message: `Could not connect to ${BASE} within 3000 ms.`,
    });
  });

  it.each(["UND_ERR_SOCKET", "ECONNRESET", "EPIPE", "UND_ERR_CLOSED"])(
    "%s is a dropped connection",
    (code) => {
      expect(classifyNetworkError(withCode(code, true), BASE, 3_000)).toEqual({
        kind: "transport",
        message: `The connection to ${BASE} closed before a complete answer arrived.`,
      });
    },
  );

  it("refused and unknown failures are transport failures naming the code, never more", () => {
    expect(classifyNetworkError(withCode("ECONNREFUSED"), BASE, 3_000).message).toContain(
      "connection refused",
    );
    expect(classifyNetworkError(withCode("EHOSTUNREACH"), BASE, 3_000)).toEqual({
      kind: "transport",
      message: `The request to ${BASE} failed (EHOSTUNREACH).`,
    });
    expect(classifyNetworkError("???", BASE, 3_000)).toEqual({
      kind: "transport",
      message: `The request to ${BASE} failed.`,
    });
  });
});
