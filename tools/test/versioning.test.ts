/**
 * The contract's version rules: the current contract against the committed 1.0 baseline, and the
 * rule itself on mutated copies of the contract (each must demand the bump contract/README.md names).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { CONTRACT_VERSION, contractDocument } from "@resmon/mcp-contract";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../src/pack-snippets.js";
import {
  baselines,
  checkVersion,
  currentSurface,
  diffSurfaces,
  requiredBump,
  type Surface,
  surfaceOf,
} from "../src/versioning.js";

type Json = Record<string, unknown>;
type Tool = {
  name: string;
  kind: string;
  requires_confirmation: boolean;
  input_schema: Json;
  output_schema: Json;
};

const all = await baselines();
const [newest] = all;
const baseline10 = all.find((b) => b.contract_version === "1.0");

function copy(): {
  tools: Tool[];
  settings: { writable: string[]; withheld: Json };
  error_codes: string[];
} & Json {
  return JSON.parse(JSON.stringify(contractDocument()));
}
function tool(doc: ReturnType<typeof copy>, name: string): Tool {
  const t = doc.tools.find((x) => x.name === name);
  if (!t) throw new Error(`no tool ${name}`);
  return t;
}
function props(schema: Json): Record<string, Json> {
  return schema.properties as Record<string, Json>;
}

/** The bump a mutation needs, and whether 1.0 -> `to` satisfies it. */
function judge(mutate: (doc: ReturnType<typeof copy>) => void) {
  const doc = copy();
  mutate(doc);
  const base = surfaceOf(contractDocument());
  const changes = diffSurfaces(base, surfaceOf(doc));
  return {
    changes,
    bump: requiredBump(changes),
    ok: (to: string) => checkVersion("1.0", to, changes).ok,
  };
}

describe("the current contract against its baseline", () => {
  it("the 1.0 baseline (25 tools) is committed, and the newest is the current version or one before it", () => {
    expect(Object.keys((baseline10 as Surface).tools)).toHaveLength(25);
    // Between releases the contract may be ahead of its newest baseline (docs/adding-a-tool.md: it
    // moves once per release, and the baseline is written when the release is cut), never behind.
    // (checkVersion with no changes: the current version is the baseline's or later.)
    expect(newest).toBeDefined();
    expect(checkVersion(newest?.contract_version ?? "", CONTRACT_VERSION, []).ok).toBe(true);
  });

  it("1.1 is a minor step from 1.0: nothing of 1.0 broken, the four scan tools added", () => {
    const changes = diffSurfaces(baseline10 as Surface, currentSurface());
    // 1.1 carries other changes too (contract/README.md, "Changes in 1.1"), additive or narrowing;
    // none may break a 1.0 row, and the scan tools add nothing but themselves.
    expect(changes.filter((c) => c.kind === "breaking")).toEqual([]);
    expect(changes.filter((c) => /scan_/.test(c.what))).toHaveLength(4);
    for (const name of ["scan_start", "scan_continue", "scan_verify", "scan_result"]) {
      expect(changes).toContainEqual({ kind: "additive", what: `tool ${name} added` });
    }
    expect(checkVersion("1.0", CONTRACT_VERSION, changes).ok).toBe(true);
    expect(checkVersion("1.0", "1.0", changes).ok).toBe(false);
  });

  it("every change since the newest baseline carries the bump it needs", () => {
    const base = newest as Surface;
    const result = checkVersion(
      base.contract_version,
      CONTRACT_VERSION,
      diffSurfaces(base, currentSurface()),
    );
    expect(result.ok, result.message).toBe(true);
  });

  it("the surface read from contract/contract.json is the package's", async () => {
    const fromFile = surfaceOf(
      JSON.parse(await readFile(join(REPO_ROOT, "contract", "contract.json"), "utf8")),
    );
    expect(diffSurfaces(fromFile, currentSurface())).toEqual([]);
  });
});

describe("the rule, on mutated copies of the contract", () => {
  it("no change needs no bump; reworded descriptions are no change", () => {
    const j = judge((d) => {
      tool(d, "health").input_schema.description = "reworded";
      (props(tool(d, "search_corpus").input_schema).query as Json).description = "reworded too";
    });
    expect(j.changes).toEqual([]);
    expect(j.ok("1.0")).toBe(true);
  });

  it("a nullable spelled as a type list or as an anyOf, in either order, is the same shape", () => {
    const spellings: Json[] = [
      { type: ["integer", "null"] },
      { type: ["null", "integer"] },
      { anyOf: [{ type: "integer" }, { type: "null" }] },
      { anyOf: [{ type: "null" }, { type: "integer" }], description: "worded" },
    ];
    for (const spelled of spellings) {
      const j = judge((d) => {
        props(tool(d, "health").output_schema).schema_version = spelled;
      });
      expect(j.changes, JSON.stringify(spelled)).toEqual([]);
    }
    // A different meaning is still a change: a nullable made non-nullable, or a richer branch.
    expect(
      judge((d) => {
        props(tool(d, "health").output_schema).schema_version = { type: "integer" };
      }).bump,
    ).toBe("major");
    expect(
      judge((d) => {
        props(tool(d, "health").output_schema).schema_version = {
          anyOf: [{ type: "integer", minimum: 1 }, { type: "null" }],
        };
      }).changes.length,
    ).toBeGreaterThan(0);
  });

  it("the committed 1.0 baseline, written with type lists, matches today's anyOf spelling", () => {
    const doc = JSON.stringify(contractDocument());
    expect(doc).not.toContain('"type":["');
    expect(JSON.stringify(newest)).toContain('"type":["');
    // Anything but an addition (a tool or an optional key added since) would be a respelling read as a change.
    expect(diffSurfaces(newest as Surface, currentSurface()).filter((c) => c.kind !== "additive")).toEqual(
      [],
    );
  });

  it("removing a tool is breaking: 1.1 is not enough, 2.0 is", () => {
    const j = judge((d) => {
      d.tools = d.tools.filter((t) => t.name !== "explain_match");
    });
    expect(j.bump).toBe("major");
    expect(j.changes[0]?.what).toContain("explain_match");
    expect(j.ok("1.0")).toBe(false);
    expect(j.ok("1.1")).toBe(false);
    expect(j.ok("2.0")).toBe(true);
  });

  it("renaming a tool is breaking", () => {
    const j = judge((d) => {
      tool(d, "get_routine").name = "fetch_routine";
    });
    expect(j.bump).toBe("major");
  });

  it("renaming an argument is breaking", () => {
    const j = judge((d) => {
      const p = props(tool(d, "search_corpus").input_schema);
      p.q = p.query as Json;
      delete p.query;
      tool(d, "search_corpus").input_schema.required = ["q"];
    });
    expect(j.bump).toBe("major");
    expect(j.changes.map((c) => c.what)).toContain("search_corpus: argument query removed or renamed");
    expect(j.ok("1.1")).toBe(false);
  });

  it("a new required argument, or an optional one made required, is breaking", () => {
    expect(
      judge((d) => {
        const t = tool(d, "list_sources").input_schema;
        t.properties = { ...(t.properties as Json), verbose: { type: "boolean" } };
        t.required = ["verbose"];
      }).bump,
    ).toBe("major");
    expect(
      judge((d) => {
        tool(d, "health").input_schema.required = ["expected_runtime_id"];
      }).bump,
    ).toBe("major");
  });

  it("an argument's type changing is breaking", () => {
    const j = judge((d) => {
      (props(tool(d, "get_routine").input_schema).routine_id as Json).type = "string";
    });
    expect(j.bump).toBe("major");
  });

  it("a changed return shape is breaking: a key removed, a type changed, a key made optional", () => {
    const removed = judge((d) => {
      delete props(tool(d, "health").output_schema).version;
    });
    expect(removed.bump).toBe("major");
    const retyped = judge((d) => {
      (props(tool(d, "health").output_schema).version as Json).type = "number";
    });
    expect(retyped.bump).toBe("major");
    const optional = judge((d) => {
      tool(d, "health").output_schema.required = [];
    });
    expect(optional.bump).toBe("major");
    expect(optional.ok("1.1")).toBe(false);
    expect(optional.ok("2.0")).toBe(true);
  });

  it("a tool moving between read and write is breaking", () => {
    const j = judge((d) => {
      tool(d, "list_sources").kind = "write";
      tool(d, "list_sources").requires_confirmation = true;
    });
    expect(j.bump).toBe("major");
  });

  it("an added tool needs a minor bump: 1.0 fails, 1.1 passes", () => {
    const j = judge((d) => {
      d.tools.push({ ...tool(d, "list_sources"), name: "list_tags" });
    });
    expect(j.changes).toEqual([{ kind: "additive", what: "tool list_tags added" }]);
    expect(j.bump).toBe("minor");
    expect(j.ok("1.0")).toBe(false);
    expect(j.ok("1.1")).toBe(true);
    expect(j.ok("2.0")).toBe(true);
  });

  it("an added optional argument needs a minor bump", () => {
    const j = judge((d) => {
      const t = tool(d, "list_sources").input_schema;
      t.properties = { ...(t.properties as Json), verbose: { type: "boolean" } };
    });
    expect(j.changes).toEqual([{ kind: "additive", what: "list_sources: optional argument verbose added" }]);
    expect(j.ok("1.0")).toBe(false);
    expect(j.ok("1.1")).toBe(true);
  });

  it("an added answer key needs a minor bump", () => {
    const j = judge((d) => {
      props(tool(d, "health").output_schema).uptime_s = { type: "number" };
    });
    expect(j.bump).toBe("minor");
    expect(j.ok("1.0")).toBe(false);
  });

  it("a narrowing (a settings key moving to withheld) needs a minor bump", () => {
    const j = judge((d) => {
      d.settings.writable = d.settings.writable.filter((k) => k !== "ai_temperature");
      d.settings.withheld = { ...d.settings.withheld, ai_temperature: "decided against" };
    });
    expect(j.changes.map((c) => c.kind)).toEqual(["narrowing", "narrowing"]);
    expect(j.bump).toBe("minor");
    expect(j.ok("1.0")).toBe(false);
    expect(j.ok("1.1")).toBe(true);
  });

  it("an argument accepting fewer values is a narrowing", () => {
    const j = judge((d) => {
      const mode = props(tool(d, "search_corpus").input_schema).mode as Json;
      mode.enum = ["keyword"];
    });
    expect(j.changes.map((c) => c.kind)).toEqual(["narrowing"]);
    expect(j.ok("1.0")).toBe(false);
  });

  it("an error code removed is breaking, one added is additive", () => {
    expect(judge((d) => void d.error_codes.pop()).bump).toBe("major");
    expect(judge((d) => void d.error_codes.push("rate_limited")).bump).toBe("minor");
  });

  it("a version going backwards never passes", () => {
    expect(checkVersion("1.1", "1.0", []).ok).toBe(false);
    expect(() => checkVersion("1.0", "one", [])).toThrow(/version/);
  });
});
