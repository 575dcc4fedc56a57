import { describe, expect, it } from "vitest";
import {
  CONTRACT_VERSION,
  contractDocument,
  ERROR_CODES,
  READ_TOOLS,
  ROUTES,
  SERVER_NAME,
  SETTINGS_KEYS_WITHHELD,
  TOOL_BY_NAME,
  TOOLS,
} from "../src/index.js";

describe("contractDocument", () => {
  const doc = contractDocument();

  it("is plain JSON: it survives a round trip unchanged", () => {
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
  });

  it("carries the version, the server name, every tool with its schemas, and the derived lists", () => {
    expect(doc.contract_version).toBe(CONTRACT_VERSION);
    expect(doc.server_name).toBe(SERVER_NAME);
    expect(doc.tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
    for (const t of doc.tools) {
      expect(t.input_schema.type, t.name).toBe("object");
      expect(t.output_schema.type, t.name).toBe("object");
      // scan_result answers from the scan's stored state alone; every other tool reaches resmon.
      if (TOOL_BY_NAME[t.name as keyof typeof TOOL_BY_NAME].localState) expect(t.routes).toEqual([]);
      else expect(t.routes.length, t.name).toBeGreaterThan(0);
    }
    expect(doc.read_tools).toEqual(READ_TOOLS);
    expect(doc.routes).toHaveLength(ROUTES.length);
    expect(doc.settings.withheld).toEqual(SETTINGS_KEYS_WITHHELD);
    expect(doc.error_codes).toEqual(ERROR_CODES);
  });
});
