/**
 * Writes contract/contract.json (the whole contract as plain JSON, for consumers that are not
 * TypeScript) and contract/tools.json (exactly what tools/list advertises) from the BUILT
 * @resmon/mcp-contract. `--check` writes nothing and exits 1 naming every stale file.
 */
import { readFile, writeFile } from "node:fs/promises";
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { contractDocument, toolsListEntries } from "@resmon/mcp-contract";
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
  for (const file of renderContractFiles()) {
    if ((await readOrEmpty(resolve(dir, file.name))) !== file.text) stale.push(file.name);
  }
  return stale;
}

/** Writes only what changed; answers the names written. */
export async function writeContractFiles(dir: string = CONTRACT_DIR): Promise<string[]> {
  const written: string[] = [];
  for (const file of renderContractFiles()) {
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
      console.log(`${where}/contract.json and ${where}/tools.json are up to date.`);
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
