import { describe, expect, it } from "vitest";
import {
  APP_SETTINGS_KEYS,
  CREDENTIAL_WORDS,
  classifySettingsKey,
  isSettingsGroup,
  ROUTES,
  SETTINGS_GROUPS,
  SETTINGS_KEYS_WITHHELD,
  SETTINGS_KEYS_WRITABLE,
  TOOL_BY_NAME,
  UNREACHABLE_SETTINGS,
} from "../src/index.js";
import { FACTS_TEXT, OPENAPI, SPEC_TEXT } from "./support/shared.js";
import { specCount, specSettingsGroups, specWithheldKeys } from "./support/spec-tables.js";

const appKeys = Object.values(APP_SETTINGS_KEYS).flat();
const withheld = Object.keys(SETTINGS_KEYS_WITHHELD);

describe("the settings lists", () => {
  it("partition the app's keys: writable and withheld are disjoint and cover every key", () => {
    expect(new Set(appKeys).size).toBe(appKeys.length);
    const writable = new Set(SETTINGS_KEYS_WRITABLE);
    for (const k of withheld) expect(writable.has(k), k).toBe(false);
    expect(new Set([...SETTINGS_KEYS_WRITABLE, ...withheld])).toEqual(new Set(appKeys));
    expect(appKeys).toHaveLength(39);
    expect(SETTINGS_KEYS_WRITABLE).toHaveLength(20);
    expect(withheld).toHaveLength(19);
  });

  it("give every withheld key a reason", () => {
    for (const [k, why] of Object.entries(SETTINGS_KEYS_WITHHELD)) expect(why.length, k).toBeGreaterThan(10);
  });

  it("hold no key of the app's that contains a credential-shaped word", () => {
    for (const k of appKeys) {
      for (const w of CREDENTIAL_WORDS) expect(k.toLowerCase().includes(w), `${k} ~ ${w}`).toBe(false);
    }
  });

  it("leave every reachable group at least one writable key", () => {
    for (const g of SETTINGS_GROUPS) {
      expect(
        APP_SETTINGS_KEYS[g].some((k) => SETTINGS_KEYS_WRITABLE.includes(k)),
        g,
      ).toBe(true);
    }
  });

  it("keep cloud and execution deliberately unreachable", () => {
    const names = UNREACHABLE_SETTINGS.map((u) => u.name);
    expect(names).toEqual(expect.arrayContaining(["cloud", "execution"]));
    for (const n of names) {
      expect(isSettingsGroup(n), n).toBe(false);
      expect(
        ROUTES.some((r) => r.path === `/api/settings/${n}`),
        n,
      ).toBe(false);
    }
    expect(
      TOOL_BY_NAME.update_settings.input.safeParse({ group: "cloud", settings: { a: "b" } }).success,
    ).toBe(false);
  });
});

describe("classifySettingsKey", () => {
  it("classifies each of the app's keys by its list", () => {
    for (const k of SETTINGS_KEYS_WRITABLE) expect(classifySettingsKey(k)).toEqual({ class: "writable" });
    for (const k of withheld) {
      expect(classifySettingsKey(k)).toEqual({ class: "withheld", reason: SETTINGS_KEYS_WITHHELD[k] });
    }
  });

  it("refuses a credential-shaped name first, whatever list it might also be on, in any case", () => {
    for (const w of CREDENTIAL_WORDS) {
      for (const k of [`${w}`, `ai_${w}`, `ai_model_${w.toUpperCase()}`, `x${w}y`]) {
        expect(classifySettingsKey(k), k).toEqual({ class: "credential", word: w });
      }
    }
    // A writable or withheld key with a credential word appended is still refused as a credential.
    expect(classifySettingsKey(`${SETTINGS_KEYS_WRITABLE[0]}_token`).class).toBe("credential");
    expect(classifySettingsKey(`${withheld[0]}_secret`).class).toBe("credential");
    expect(classifySettingsKey("anthropic_api_key")).toEqual({ class: "credential", word: "key" });
  });

  it("leaves a key on neither list undecided, never writable", () => {
    for (const k of [
      "cloud_provider",
      "cloud_auto_backup",
      "max_concurrent_executions",
      "ai_new_thing",
      "AI_MODEL",
    ]) {
      expect(classifySettingsKey(k), k).toEqual({ class: "undecided" });
    }
  });
});

describe.skipIf(SPEC_TEXT === undefined)("against the spec", () => {
  const spec = SPEC_TEXT ?? "";

  it("withholds exactly the keys of the spec's table", () => {
    const specKeys = specWithheldKeys(spec);
    expect(specKeys.length).toBe(specCount(spec, "Withheld, refused on the name"));
    expect(new Set(withheld)).toEqual(new Set(specKeys));
  });

  it("matches the spec's counts and group allowlist", () => {
    expect(appKeys.length).toBe(specCount(spec, "Settings keys the app has"));
    expect(SETTINGS_KEYS_WRITABLE.length).toBe(specCount(spec, "Writable through"));
    expect([...SETTINGS_GROUPS]).toEqual(specSettingsGroups(spec));
  });
});

describe.skipIf(FACTS_TEXT === undefined)("against facts.md §5", () => {
  // Rows like "| ai (16) | ai_provider, **ai_model**, … |": bold keys are the writable ones.
  const rows = [...(FACTS_TEXT ?? "").matchAll(/^\| ([a-z]+) \((\d+)\) \| (.+) \|$/gm)].map((m) => ({
    group: m[1] ?? "",
    count: Number(m[2]),
    keys: (m[3] ?? "")
      .split(/,\s*/)
      .map((cell) => ({ key: cell.replaceAll("*", "").split(" ")[0] ?? "", bold: cell.startsWith("**") })),
  }));

  it("has the app's key list for each group", () => {
    expect(rows.map((r) => r.group)).toEqual([...SETTINGS_GROUPS]);
    for (const r of rows) {
      expect(APP_SETTINGS_KEYS[r.group as keyof typeof APP_SETTINGS_KEYS], r.group).toEqual(
        r.keys.map((k) => k.key),
      );
      expect(r.keys.length, r.group).toBe(r.count);
    }
  });

  it("makes writable exactly the keys facts marks bold", () => {
    const bold = rows.flatMap((r) => r.keys.filter((k) => k.bold).map((k) => k.key));
    expect(new Set(SETTINGS_KEYS_WRITABLE)).toEqual(new Set(bold));
  });
});

describe.skipIf(OPENAPI === undefined)("against resmon's openapi.json", () => {
  it("serves GET and PUT for every reachable group, and the unreachable ones exist", () => {
    const paths = OPENAPI?.paths ?? {};
    for (const g of SETTINGS_GROUPS) {
      expect(paths[`/api/settings/${g}`]?.get, g).toBeDefined();
      expect(paths[`/api/settings/${g}`]?.put, g).toBeDefined();
    }
    for (const u of UNREACHABLE_SETTINGS) expect(paths[`/api/settings/${u.name}`], u.name).toBeDefined();
  });
});
