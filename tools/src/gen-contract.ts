/**
 * Writes contract/contract.json (the whole contract as plain JSON, for consumers that are not
 * TypeScript) and contract/tools.json (exactly what tools/list advertises) from the BUILT
 * @resmon/mcp-contract, and the tool table in contract/README.md (between its markers).
 * `--check` writes nothing and exits 1 naming every stale file.
 */
import { readFile, writeFile } from "node:fs/promises";
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { contractDocument, TOOLS, toolsListEntries } from "@resmon/mcp-contract";
import { runIfMain } from "./run-main.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const CONTRACT_DIR = resolve(repoRoot, "contract");

export interface GeneratedFile {
  /** Relative to the contract directory. */
  name: string;
  text: string;
}

/** Two-space JSON with a trailing newline; key order is the contract's own, so output is stable. */
const render = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

export function renderContractFiles(): GeneratedFile[] {
  return [
    { name: "contract.json", text: render(contractDocument()) },
    { name: "tools.json", text: render(toolsListEntries()) },
  ];
}

const TABLE_START = /<!-- tools: generated[^\n]*-->\n/;
const TABLE_END = "<!-- end tools -->";

/** The README's tool table, one row per tool in table order, padded as the formatter pads it. */
export function renderToolTable(): string {
  const rows = [
    ["tool", "class", "requires_confirmation", "what it is"],
    ...TOOLS.map((t) => [`\`${t.name}\``, t.kind, String(t.requiresConfirmation), t.title]),
  ];
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  const [header, ...body] = rows;
  return [line(header ?? []), line(widths.map((w) => "-".repeat(w))), ...body.map(line), ""].join("\n");
}

/** The README with its generated table replaced; undefined when there is no README with the markers. */
async function renderReadme(dir: string): Promise<GeneratedFile | undefined> {
  const text = await readOrEmpty(resolve(dir, "README.md"));
  const start = TABLE_START.exec(text);
  const end = text.indexOf(TABLE_END);
  if (!start || end < start.index) return undefined;
  const from = start.index + start[0].length;
  return { name: "README.md", text: text.slice(0, from) + renderToolTable() + text.slice(end) };
}

async function allFiles(dir: string): Promise<GeneratedFile[]> {
  const readme = await renderReadme(dir);
  return readme ? [...renderContractFiles(), readme] : renderContractFiles();
}

async function readOrEmpty(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch {
    return "";
  }
}

/** The generated files whose text on disk differs from what the contract renders now. */
export async function staleFiles(dir: string = CONTRACT_DIR): Promise<string[]> {
  const stale: string[] = [];
  for (const file of await allFiles(dir)) {
    if ((await readOrEmpty(resolve(dir, file.name))) !== file.text) stale.push(file.name);
  }
  return stale;
}

/** Writes only what changed; answers the names written. */
export async function writeContractFiles(dir: string = CONTRACT_DIR): Promise<string[]> {
  const written: string[] = [];
  for (const file of await allFiles(dir)) {
    const path = resolve(dir, file.name);
    if ((await readOrEmpty(path)) === file.text) continue;
    await writeFile(path, file.text);
    written.push(file.name);
  }
  return written;
}

export async function main(argv: readonly string[], dir: string = CONTRACT_DIR): Promise<number> {
  const where = relative(repoRoot, dir) || ".";
  if (argv.includes("--check")) {
    const stale = await staleFiles(dir);
    if (stale.length === 0) {
      console.log(`${where}/contract.json, tools.json and the README's tool table are up to date.`);
      return 0;
    }
    for (const name of stale) {
      console.error(`${where}/${name} is stale: run \`pnpm generate\` and commit the result.`);
    }
    return 1;
  }
  const written = await writeContractFiles(dir);
  console.log(
    written.length === 0 ? `${where}: unchanged.` : written.map((n) => `wrote ${where}/${n}`).join("\n"),
  );
  return 0;
}

runIfMain(import.meta.url, "gen-contract", main);
