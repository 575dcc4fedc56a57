import { describe, expect, it } from "vitest";
import { z } from "zod";
import { readTool, writeTool } from "../src/define.js";
import { TOOL_BY_NAME, TOOLS } from "../src/index.js";

describe("a row's schemas", () => {
  it("are built on first read, once, each on its own", () => {
    const built: string[] = [];
    const row = readTool({
      name: "probe",
      title: "Probe",
      description: "A row of this test.",
      input: () => {
        built.push("input");
        return z.strictObject({ n: z.int() });
      },
      output: () => {
        built.push("output");
        return z.looseObject({ ok: z.boolean() });
      },
      routes: [{ method: "GET", path: "/api/health" }],
      example: { n: 1 },
      budget: 10,
    });
    expect(row.kind).toBe("read");
    expect(built).toEqual([]);
    expect(row.input.parse({ n: 2 })).toEqual({ n: 2 });
    expect(built).toEqual(["input"]);
    expect(row.input).toBe(row.input);
    expect({ ...row }.output).toBe(row.output);
    expect(built).toEqual(["input", "output"]);
  });

  it("read like any property of a write's row too", () => {
    let calls = 0;
    const row = writeTool({
      name: "probe_write",
      title: "Probe write",
      description: "A write of this test.",
      idempotent: true,
      openWorld: false,
      input: () => {
        calls++;
        return z.strictObject({});
      },
      output: () => z.looseObject({}),
      routes: [{ method: "POST", path: "/api/routines" }],
      example: {},
      budget: 10,
    });
    expect(calls).toBe(0);
    expect(Object.keys(row)).toContain("input");
    expect(row.input.safeParse({ extra: 1 }).success).toBe(false);
    expect(calls).toBe(1);
  });

  it("are the same objects on every read of the table", () => {
    for (const t of TOOLS) {
      expect(TOOL_BY_NAME[t.name].input, t.name).toBe(t.input);
      expect(TOOL_BY_NAME[t.name].output, t.name).toBe(t.output);
    }
  });
});
