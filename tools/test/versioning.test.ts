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
  needs_resmon?: string;
};

const all = await baselines();
const [newest] = all;
const baseline10 = all.find((b) => b.contract_version === "1.0");

function copy(): {
  tools: Tool[];
  settings: { writable: string[]; withheld: Json };
  error_codes: string[];
  resmon: { feature_keys: Record<string, Record<string, string[]>> };
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

/** The bump from a mutated baseline (`before`) to a mutated current contract (`after`). */
function judgeBetween(
  before: (doc: ReturnType<typeof copy>) => void,
  after: (doc: ReturnType<typeof copy>) => void = () => {},
) {
  const base = copy();
  before(base);
  const now = copy();
  after(now);
  const changes = diffSurfaces({ ...surfaceOf(base), contract_version: "1.2" }, surfaceOf(now));
  return { changes, bump: requiredBump(changes), ok: (to: string) => checkVersion("1.2", to, changes).ok };
}

/** A mutation: the named tool needs resmon `line`. */
function needing(name: string, line: string) {
  return (doc: ReturnType<typeof copy>) => {
    tool(doc, name).needs_resmon = line;
  };
}

/** list_routines' row schema in a copy of the contract. */
function routineRowSchema(doc: ReturnType<typeof copy>): Json {
  return (props(tool(doc, "list_routines").output_schema).routines as Json).items as Json;
}

/** A baseline in which list_routines promised missed_fires on every row and needed `needs`. */
function missedFiresRequired(needs: string | undefined) {
  return (doc: ReturnType<typeof copy>) => {
    const row = routineRowSchema(doc);
    row.required = [...(row.required as string[]), "missed_fires"];
    if (needs === undefined) delete tool(doc, "list_routines").needs_resmon;
    else tool(doc, "list_routines").needs_resmon = needs;
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
    // (1.4's progress and resource lines name scan tools and scan_id too: they are not tool changes.)
    const scanTools = changes.filter((c) => /^(tool )?scan_/.test(c.what));
    expect(scanTools).toHaveLength(4);
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

  it("1.3 against 1.2: missed_fires optional only below 2.3, where 1.2 refused the routine tools", () => {
    const base = all.find((b) => b.contract_version === "1.2") as Surface;
    // The 1.2 baseline carries the needs_resmon of 1.2's own document (rewritten from it with --from).
    expect(base.tools.list_routines?.needs_resmon).toBe("2.3");
    expect(base.tools.health?.needs_resmon).toBe("1.6");
    const changes = diffSurfaces(base, currentSurface()).filter((c) => /_routines?:/.test(c.what));
    expect(changes).toContainEqual({
      kind: "additive",
      what: "list_routines: answer key .routines[].missed_fires optional below resmon 2.3: answers where 1.2 refused",
    });
    expect(changes).toContainEqual({
      kind: "additive",
      what: "get_routine: answer key .missed_fires optional below resmon 2.3: answers where 1.2 refused",
    });
    expect(changes).toContainEqual({
      kind: "additive",
      what: "get_routine: answers on resmon 1.6 (needed 2.3)",
    });
    expect(changes.filter((c) => c.kind !== "additive")).toEqual([]);
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

  it("a required key made optional below the line of the feature the contract names, where the baseline refused: additive", () => {
    // The baseline needed 2.3 for list_routines; the contract names missed_fires' key (2.3).
    const j = judgeBetween(missedFiresRequired("2.3"));
    expect(j.changes).toContainEqual({
      kind: "additive",
      what: "list_routines: answer key .routines[].missed_fires optional below resmon 2.3: answers where 1.2 refused",
    });
    expect(j.changes.filter((c) => c.kind === "breaking")).toEqual([]);
    expect(j.ok("1.2")).toBe(false);
    expect(j.ok("1.3")).toBe(true);
    // A baseline naming no needs_resmon (1.0, 1.1) was written against resmon 2.3 alone.
    expect(judgeBetween(missedFiresRequired(undefined)).bump).toBe("minor");
  });

  it("any other required key made optional stays breaking", () => {
    // The baseline answered on 1.7 with missed_fires always there: a 1.7 reader would now lose it.
    const answered = judgeBetween(missedFiresRequired("1.7"));
    expect(answered.changes).toContainEqual({
      kind: "breaking",
      what: "list_routines: answer key .routines[].missed_fires changed shape",
    });
    expect(answered.ok("1.3")).toBe(false);
    expect(answered.ok("2.0")).toBe(true);
    // The contract names no feature carrying the key: the baseline's needs do not matter.
    const unnamed = judgeBetween(missedFiresRequired("2.3"), (d) => {
      d.resmon.feature_keys = {};
    });
    expect(unnamed.bump).toBe("major");
    // A key of the same row that no feature carries, made optional.
    const other = judgeBetween(needing("list_routines", "2.3"), (d) => {
      const row = routineRowSchema(d);
      row.required = (row.required as string[]).filter((k) => k !== "active");
    });
    expect(other.changes).toContainEqual({
      kind: "breaking",
      what: "list_routines: answer key .routines[].active changed shape",
    });
    // Optional and retyped at once is a changed shape whatever the versions.
    const retyped = judgeBetween(missedFiresRequired("2.3"), (d) => {
      (props(routineRowSchema(d)).missed_fires as Json).type = "string";
    });
    expect(retyped.bump).toBe("major");
  });

  it("a tool answering on an older resmon is additive; one needing a newer resmon is a narrowing", () => {
    const older = judgeBetween(needing("health", "1.7"));
    expect(older.changes).toEqual([{ kind: "additive", what: "health: answers on resmon 1.6 (needed 1.7)" }]);
    const newer = judgeBetween(() => {}, needing("health", "2.3"));
    expect(newer.changes).toEqual([
      { kind: "narrowing", what: "health: needs resmon 2.3 (answered on 1.6)" },
    ]);
    expect(newer.ok("1.2")).toBe(false);
    expect(newer.ok("1.3")).toBe(true);
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

  it("an answer's enum gaining a value (a new next_action) needs a minor bump; losing one is breaking", () => {
    const scanEnum = (d: ReturnType<typeof copy>) =>
      (props(tool(d, "scan_result").output_schema).next_action as Json).enum as string[];
    const gained = judge((d) => {
      scanEnum(d).push("ask_later");
    });
    expect(gained.changes).toEqual([
      { kind: "additive", what: 'scan_result: answer key .next_action gains values "ask_later"' },
    ]);
    expect(gained.ok("1.0")).toBe(false);
    expect(gained.ok("1.1")).toBe(true);
    const lost = judge((d) => {
      scanEnum(d).pop();
    });
    expect(lost.bump).toBe("major");
    const swapped = judge((d) => {
      scanEnum(d).splice(0, 1, "ask_later");
    });
    expect(swapped.bump).toBe("major");
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

  it("1.4's prompts, resources and progress tools are additive against 1.3, which had none", () => {
    const base = all.find((b) => b.contract_version === "1.3") as Surface;
    expect(base.prompts).toBeUndefined();
    const changes = diffSurfaces(base, currentSurface()).filter((c) =>
      /prompt|resource|progress/.test(c.what),
    );
    expect(changes).toContainEqual({ kind: "additive", what: "prompt literature_scan added" });
    expect(changes).toContainEqual({
      kind: "additive",
      what: "resources resmon-scan://{scan_id}/{file} added",
    });
    expect(changes).toContainEqual({ kind: "additive", what: "progress tool: scan_start added" });
    expect(changes.every((c) => c.kind === "additive")).toBe(true);
    expect(checkVersion("1.3", "1.3", changes).ok).toBe(false);
    expect(checkVersion("1.3", "1.4", changes).ok).toBe(true);
  });

  it("a prompt is held like a tool: removed or a required argument added breaks, an optional one is additive", () => {
    type Prompt = { name: string; arguments: { name: string; required: boolean }[] };
    const prompts = (d: Json) => d.prompts as Prompt[];
    const scanPrompt = (d: Json) => prompts(d).find((p) => p.name === "literature_scan") as Prompt;
    expect(
      judge((d) => {
        d.prompts = [];
      }).changes,
    ).toEqual([{ kind: "breaking", what: "prompt literature_scan removed or renamed" }]);
    const required = judge((d) => void scanPrompt(d).arguments.push({ name: "depth", required: true }));
    expect(required.bump).toBe("major");
    const optional = judge((d) => void scanPrompt(d).arguments.push({ name: "depth", required: false }));
    expect(optional.changes).toEqual([
      { kind: "additive", what: "prompt literature_scan: optional argument depth added" },
    ]);
    expect(optional.ok("1.1")).toBe(true);
    const madeRequired = judge((d) => {
      const window = scanPrompt(d).arguments.find((a) => a.name === "window");
      if (window) window.required = true;
    });
    expect(madeRequired.bump).toBe("major");
    const dropped = judge((d) => {
      scanPrompt(d).arguments = scanPrompt(d).arguments.filter((a) => a.name !== "sources");
    });
    expect(dropped.bump).toBe("major");
    // The words are not frozen.
    const reworded = judge((d) => {
      (scanPrompt(d) as unknown as Json).description = "Another wording.";
      (scanPrompt(d) as unknown as Json).message = { role: "user", lines: [{ text: "Other words." }] };
    });
    expect(reworded.bump).toBe("none");
  });

  it("a resource's URI template or MIME type moving, or a file removed, breaks; a file added is additive", () => {
    type Resources = { uri_template: string; files: { file: string; mime_type: string }[] };
    const res = (d: Json) => d.resources as Resources;
    expect(
      judge((d) => {
        res(d).uri_template = "resmon://scans/{scan_id}/{file}";
      }).bump,
    ).toBe("major");
    expect(
      judge((d) => {
        const bib = res(d).files.find((f) => f.file === "evidence.bib");
        if (bib) bib.mime_type = "text/plain";
      }).bump,
    ).toBe("major");
    expect(judge((d) => void res(d).files.pop()).bump).toBe("major");
    expect(judge((d) => void delete d.resources).bump).toBe("major");
    const added = judge(
      (d) =>
        void res(d).files.push({ file: "evidence.ris", mime_type: "application/x-research-info-systems" }),
    );
    expect(added.changes).toEqual([{ kind: "additive", what: "resource file evidence.ris added" }]);
  });

  it("a tool that stops reporting progress is a narrowing, one that starts is additive", () => {
    const tools = (d: Json) => (d.progress as { tools: Record<string, string> }).tools;
    const stopped = judge((d) => void delete tools(d).export_references);
    expect(stopped.changes).toEqual([
      { kind: "narrowing", what: "progress tool: export_references removed" },
    ]);
    expect(stopped.ok("1.1")).toBe(true);
    const started = judge((d) => {
      tools(d).run_sweep = "the sweep's sources";
    });
    expect(started.changes).toEqual([{ kind: "additive", what: "progress tool: run_sweep added" }]);
  });

  it("a version going backwards never passes", () => {
    expect(checkVersion("1.1", "1.0", []).ok).toBe(false);
    expect(() => checkVersion("1.0", "one", [])).toThrow(/version/);
  });
});
