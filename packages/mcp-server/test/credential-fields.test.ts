import { TOOLS, toToolJsonSchema } from "@resmon/mcp-contract";
import { describe, expect, it } from "vitest";
import { isCredentialField, withoutCredentialFields } from "../src/credential-fields.js";

/** Found by `pnpm reliability`: health, get_routine, get_execution … passed resmon's nested objects on with any credential field in them. */
describe("credential-named fields never leave in an answer", () => {
  it("matches names that hold a credential value", () => {
    for (const name of [
      "api_key",
      "openai_api_key",
      "token",
      "smtp_password",
      "client_secret",
      "credentials",
      "apiKey",
    ]) {
      expect(isCredentialField(name), name).toBe(true);
    }
  });

  it("keeps names that only mention one", () => {
    for (const name of [
      "credential_alias",
      "credential_status",
      "key_required",
      "keywords",
      "authors",
      "keys",
      "group_keys",
    ]) {
      expect(isCredentialField(name), name).toBe(false);
    }
  });

  it("no documented input or output field is credential-named", () => {
    const names = new Set<string>();
    const walk = (s: unknown): void => {
      if (!s || typeof s !== "object") return;
      const props = (s as { properties?: Record<string, unknown> }).properties;
      if (props) for (const k of Object.keys(props)) names.add(k);
      for (const v of Object.values(s)) walk(v);
    };
    for (const t of TOOLS) {
      walk(toToolJsonSchema(t.input, "input"));
      walk(toToolJsonSchema(t.output, "output"));
    }
    expect([...names].filter(isCredentialField)).toEqual([]);
  });

  it("drops them at any depth, arrays included, and leaves the rest", () => {
    const answer = {
      status: "ok",
      scheduler: { running: true, api_key: "sk-x", nested: [{ token: "t", keep: 1 }] },
      credential_alias: "openai_api_key",
    };
    expect(withoutCredentialFields(answer)).toEqual({
      status: "ok",
      scheduler: { running: true, nested: [{ keep: 1 }] },
      credential_alias: "openai_api_key",
    });
  });

  it("returns an answer with nothing to drop as it is, and copies only the path to a dropped field", () => {
    const papers = Array.from({ length: 3 }, (_, id) => ({ id, authors: ["A"], keywords: ["k"] }));
    const clean = { papers, next_cursor: null };
    expect(withoutCredentialFields(clean)).toBe(clean);
    const withSecret = { papers, run: { parameters: { api_key: "sk-x", query: "q" } } };
    const out = withoutCredentialFields(withSecret);
    expect(out).toEqual({ papers, run: { parameters: { query: "q" } } });
    expect(out.papers).toBe(papers);
    expect(withSecret.run.parameters.api_key).toBe("sk-x");
  });

  it("keeps a field named __proto__ as a field when it copies", () => {
    const parsed = JSON.parse('{"__proto__":{"x":1},"token":"t","keep":2}') as Record<string, unknown>;
    expect(JSON.stringify(withoutCredentialFields(parsed))).toBe('{"__proto__":{"x":1},"keep":2}');
  });
});
