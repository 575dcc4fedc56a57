import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { isCanonicalUuid4, parseIdentity } from "../src/index.js";

const GOOD = "a557b1b5-0382-4f28-a866-3d5bb2700f73";
const identity = (overrides: Record<string, unknown> = {}) => ({
  identity: {
    contract_version: 1,
    runtime_id: GOOD,
    schema_version: 21,
    corpus_id: null,
    build_id: null,
    ...overrides,
  },
});

describe("isCanonicalUuid4", () => {
  it.each([GOOD, "11111111-2222-4333-8444-555555555555", "00000000-0000-4000-b000-000000000000"])(
    "accepts %s",
    (s) => {
      expect(isCanonicalUuid4(s)).toBe(true);
    },
  );
  it.each([
    ["uppercase", GOOD.toUpperCase()],
    ["version 1", "a557b1b5-0382-1f28-a866-3d5bb2700f73"],
    ["non-RFC variant", "a557b1b5-0382-4f28-c866-3d5bb2700f73"],
    ["no hyphens", GOOD.replaceAll("-", "")],
    ["braces", `{${GOOD}}`],
    ["urn", `urn:uuid:${GOOD}`],
    ["surrounding space", ` ${GOOD}`],
    ["trailing newline", `${GOOD}\n`],
    ["empty", ""],
  ])("refuses %s", (_what, s) => {
    expect(isCanonicalUuid4(s)).toBe(false);
  });
});

describe("parseIdentity", () => {
  it("accepts a conforming identity", () => {
    expect(parseIdentity(identity())).toEqual({ ok: true, identity: identity().identity });
    expect(parseIdentity(identity({ schema_version: null, corpus_id: "c", build_id: "b" }))).toMatchObject({
      ok: true,
    });
  });

  it.each([
    ["a body without identity", { status: "ok" }],
    ["a null identity", { identity: null }],
    ["a body that is not an object", "ok"],
    ["no body", undefined],
  ])("missing: %s", (_what, body) => {
    expect(parseIdentity(body)).toEqual({ ok: false, problem: "missing" });
  });

  it.each([[2], [0]])("unsupported: contract_version %i", (version) => {
    expect(parseIdentity(identity({ contract_version: version }))).toEqual({
      ok: false,
      problem: "unsupported",
    });
  });

  it.each([
    ["identity is a string", { identity: "x" }],
    ["contract_version is a string", identity({ contract_version: "1" })],
    ["runtime_id is uppercase", identity({ runtime_id: GOOD.toUpperCase() })],
    ["runtime_id is absent", identity({ runtime_id: undefined })],
    ["schema_version is fractional", identity({ schema_version: 21.5 })],
    ["schema_version is absent", identity({ schema_version: undefined })],
    ["corpus_id is a number", identity({ corpus_id: 3 })],
    ["build_id is absent", identity({ build_id: undefined })],
  ])("malformed: %s", (_what, body) => {
    expect(parseIdentity(body)).toEqual({ ok: false, problem: "malformed" });
  });

  const sample = resolve(
    dirname(fileURLToPath(import.meta.url)),
    "../../../../shared/resmon/samples/GET__api_health.json",
  );
  it("accepts the real backend's health answer (skipped without ../shared)", async (ctx) => {
    let text: string;
    try {
      text = await readFile(sample, "utf8");
    } catch {
      ctx.skip();
      return;
    }
    const body = JSON.parse(text).response.body;
    expect(parseIdentity(body)).toMatchObject({ ok: true, identity: { contract_version: 1 } });
  });
});
