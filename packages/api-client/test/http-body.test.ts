import { describe, expect, it } from "vitest";
import { AnswerHeaders } from "../src/answer-headers.js";
import { GUARD_REMEDIES } from "../src/errors.js";
import { BodyMeter, httpErrorFrom, parseRetryAfter, parseSuccessBody } from "../src/http-body.js";

const reply = (status: number, type: string | null, text: string) => ({
  status,
  statusText: "",
  headers: new AnswerHeaders(type ? { "content-type": type } : {}),
  bytes: new TextEncoder().encode(text),
});

describe("parseRetryAfter", () => {
  it("reads delta-seconds and HTTP dates", () => {
    expect(parseRetryAfter("7")).toBe(7);
    expect(parseRetryAfter(" 0 ")).toBe(0);
    const now = Date.parse("2026-11-30T06:00:00Z");
    expect(parseRetryAfter("Mon, 30 Nov 2026 06:00:10 GMT", now)).toBe(10);
    expect(parseRetryAfter("Mon, 30 Nov 2026 05:00:00 GMT", now)).toBe(0);
  });
  it("ignores what it cannot read", () => {
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter("soon")).toBeUndefined();
    expect(parseRetryAfter("-3")).toBeUndefined();
  });
});

describe("parseSuccessBody", () => {
  it("parses JSON and keeps CSV / RIS / BibTeX as text", () => {
    expect(parseSuccessBody(reply(200, "application/json", '{"a":1}'))).toEqual({ ok: true, data: { a: 1 } });
    expect(parseSuccessBody(reply(200, "text/csv; charset=utf-8", "a,b\r\n"))).toEqual({
      ok: true,
      data: "a,b\r\n",
    });
    expect(parseSuccessBody(reply(200, "application/x-research-info-systems", "TY  - JOUR"))).toMatchObject({
      ok: true,
      data: "TY  - JOUR",
    });
    expect(parseSuccessBody(reply(201, null, '{"id":4}'))).toEqual({ ok: true, data: { id: 4 } });
  });
  it("calls a 2xx that is not JSON malformed", () => {
    expect(parseSuccessBody(reply(200, "application/json", "<html>"))).toMatchObject({
      ok: false,
      error: { kind: "malformed", status: 200 },
    });
  });
});

describe("httpErrorFrom", () => {
  it("takes the guard reason only from an object detail with a known reason", () => {
    expect(
      httpErrorFrom(reply(401, "application/json", '{"detail":{"reason":"token_invalid","message":"m"}}')),
    ).toMatchObject({ reason: "token_invalid", message: `m. ${GUARD_REMEDIES.token_invalid}` });
    expect(
      httpErrorFrom(reply(403, "application/json", '{"detail":{"reason":"other"}}')).reason,
    ).toBeUndefined();
    expect(
      httpErrorFrom(reply(404, "application/json", '{"detail":"token_invalid"}')).reason,
    ).toBeUndefined();
  });
  it("keeps a non-JSON body out of the detail", () => {
    const error = httpErrorFrom(reply(500, "text/plain", "Internal Server Error"));
    expect(error).toEqual({ kind: "http", status: 500, message: "resmon answered HTTP 500." });
  });
});

describe("BodyMeter", () => {
  const metered = (
    type: string,
    text: string,
    limits = { maxBodyBytes: 1_000_000, maxJsonValues: 1_000_000 },
  ) => {
    const meter = new BodyMeter(type, limits);
    const bytes = new TextEncoder().encode(text);
    // One byte a chunk: a string, an escape or a number split across chunks is still counted once.
    let passed: string | undefined;
    for (let i = 0; i < bytes.length && passed === undefined; i += 1)
      passed = meter.add(bytes.subarray(i, i + 1));
    return passed;
  };

  it("counts every JSON value outside strings, keys included, whatever the chunking", () => {
    // {"a":[1,-2.5e3,"x,{[",true,null,{}]}: object, key, array, 1, -2.5e3, string, true, null, {} = 9.
    const body = '{"a":[1,-2.5e3,"x,{[\\"",true,null,{}]}';
    expect(metered("application/json", body, { maxBodyBytes: 1_000, maxJsonValues: 9 })).toBeUndefined();
    expect(metered("application/json", body, { maxBodyBytes: 1_000, maxJsonValues: 8 })).toBe("json_values");
  });

  it("weighs a JSON body as its bytes plus one per quote and backslash", () => {
    const body = '"a\\"b"'; // 6 bytes, 3 quotes, 1 backslash: weight 10
    expect(metered("application/json", body, { maxBodyBytes: 10, maxJsonValues: 10 })).toBeUndefined();
    expect(metered("application/json", body, { maxBodyBytes: 9, maxJsonValues: 10 })).toBe("bytes");
  });

  it("weighs a text export as the JSON it becomes twice over, and counts no values in it", () => {
    // x: 1, a quote: 4, a newline: 3, \u0001: 7
    const body = 'x"\n\u0001';
    expect(metered("application/x-bibtex", body, { maxBodyBytes: 15, maxJsonValues: 0 })).toBeUndefined();
    expect(metered("text/csv; charset=utf-8", body, { maxBodyBytes: 14, maxJsonValues: 0 })).toBe("bytes");
  });
});
