/**
 * Generates packages/api-client/src/generated/resmon-api.ts from contract/resmon-api.openapi.json
 * with openapi-typescript. `--check` writes nothing and exits 1 when the committed file is stale.
 */
import { readFile, writeFile } from "node:fs/promises";
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString, COMMENT_HEADER } from "openapi-typescript";
import { API_DESCRIPTION } from "./api-description-path.js";
import { runIfMain } from "./run-main.js";

export { API_DESCRIPTION };

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const GENERATED_TYPES = resolve(repoRoot, "packages/api-client/src/generated/resmon-api.ts");

/** The generated module's text, deterministic for a given description. */
export async function renderApiTypes(descriptionPath: string = API_DESCRIPTION): Promise<string> {
  const document = JSON.parse(await readFile(descriptionPath, "utf8"));
  const nodes = await openapiTS(document, {
    silent: true,
    alphabetize: false,
    defaultNonNullable: false,
    emptyObjectsUnknown: true,
  });
  const source = relative(repoRoot, descriptionPath).split("\\").join("/");
  return `${COMMENT_HEADER}// Source: ${source}. Regenerate with \`pnpm generate\`.\n\n${astToString(nodes)}`;
}

async function readOrEmpty(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch {
    return "";
  }
}

async function main(argv: readonly string[]): Promise<number> {
  const check = argv.includes("--check");
  const expected = await renderApiTypes();
  const current = await readOrEmpty(GENERATED_TYPES);
  const target = relative(repoRoot, GENERATED_TYPES);
  if (check) {
    if (current === expected) {
      console.log(`${target} is up to date.`);
      return 0;
    }
    console.error(`${target} is stale: run \`pnpm generate\` and commit the result.`);
    return 1;
  }
  if (current === expected) {
    console.log(`${target} unchanged.`);
    return 0;
  }
  await writeFile(GENERATED_TYPES, expected);
  console.log(`wrote ${target}`);
  return 0;
}

runIfMain(import.meta.url, "gen-api-types", main);
