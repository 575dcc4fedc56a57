import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { contractDocument, toolsListEntries } from "@resmon/mcp-contract";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { main, renderContractFiles, staleFiles, writeContractFiles } from "../src/gen-contract.js";

describe("gen-contract", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "gen-contract-"));
    vi.spyOn(console, "log").mockImplementation(() => {});
    vi.spyOn(console, "error").mockImplementation(() => {});
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await rm(dir, { recursive: true, force: true });
  });

  it("renders tools.json as exactly what tools/list advertises, and contract.json as the document", () => {
    const files = Object.fromEntries(renderContractFiles().map((f) => [f.name, f.text]));
    expect(JSON.parse(files["tools.json"] ?? "")).toEqual(toolsListEntries());
    expect(JSON.parse(files["contract.json"] ?? "")).toEqual(JSON.parse(JSON.stringify(contractDocument())));
    for (const text of Object.values(files)) expect(text.endsWith("}\n") || text.endsWith("]\n")).toBe(true);
  });

  it("renders the same bytes every time", () => {
    expect(renderContractFiles()).toEqual(renderContractFiles());
  });

  it("writes both files, then finds nothing stale and rewrites nothing", async () => {
    expect(await writeContractFiles(dir)).toEqual(["contract.json", "tools.json"]);
    expect(await staleFiles(dir)).toEqual([]);
    expect(await writeContractFiles(dir)).toEqual([]);
  });

  it("--check exits 1 naming each stale or missing file, and writes nothing", async () => {
    expect(await main(["--check"], dir)).toBe(1);
    expect(await staleFiles(dir)).toEqual(["contract.json", "tools.json"]);

    await main([], dir);
    expect(await main(["--check"], dir)).toBe(0);

    const tools = join(dir, "tools.json");
    await writeFile(tools, (await readFile(tools, "utf8")).replace('"health"', '"healthz"'));
    const errors = vi.mocked(console.error);
    errors.mockClear();
    expect(await main(["--check"], dir)).toBe(1);
    expect(errors.mock.calls.flat().join("\n")).toMatch(/tools\.json is stale/);
    expect(errors.mock.calls.flat().join("\n")).not.toMatch(/contract\.json/);
    expect(await readFile(tools, "utf8")).toContain('"healthz"');
  });
});
