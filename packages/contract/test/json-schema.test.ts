import { describe, expect, it } from "vitest";
import { z } from "zod";
import { toToolJsonSchema } from "../src/index.js";

describe("toToolJsonSchema", () => {
  it("drops the dialect line and the ±2^53 bounds zod adds to integers, keeping real bounds", () => {
    const schema = toToolJsonSchema(
      z.strictObject({ n: z.int().describe("n"), m: z.int().min(1).max(9).describe("m") }),
      "input",
    );
    expect(schema).toEqual({
      type: "object",
      properties: {
        n: { type: "integer", description: "n" },
        m: { type: "integer", minimum: 1, maximum: 9, description: "m" },
      },
      required: ["n", "m"],
      additionalProperties: false,
    });
  });

  it("keeps a nullable as an anyOf of single types, never a type list (the Inspector warns on one)", () => {
    const schema = toToolJsonSchema(
      z.looseObject({
        a: z.int().nullable(),
        b: z.union([z.string().min(2), z.null()]),
        c: z.string().nullable().optional(),
      }),
      "output",
    );
    expect(schema.properties).toEqual({
      a: { anyOf: [{ type: "integer" }, { type: "null" }] },
      c: { anyOf: [{ type: "string" }, { type: "null" }] },
      b: { anyOf: [{ type: "string", minLength: 2 }, { type: "null" }] },
    });
    expect(schema).not.toHaveProperty("additionalProperties");
  });

  it("keeps defaults out of required for input, records keep their value schema", () => {
    const schema = toToolJsonSchema(
      z.strictObject({
        limit: z.int().default(25).describe("l"),
        r: z.record(z.string(), z.string()).describe("r"),
      }),
      "input",
    );
    expect(schema.required).toEqual(["r"]);
    expect((schema.properties as Record<string, unknown>).r).toEqual({
      type: "object",
      additionalProperties: { type: "string" },
      description: "r",
    });
  });
});
