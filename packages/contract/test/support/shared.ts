import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** `<repo root>/../shared`, where CI puts the spec and the real backend's material. */
export const SHARED_DIR = fileURLToPath(new URL("../../../../../shared/", import.meta.url));
export const REPO_ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

const specPath = () => {
  const dir = `${SHARED_DIR}spec/`;
  if (!existsSync(dir)) return undefined;
  const name = readdirSync(dir).find((f) => f.startsWith("000_") && f.endsWith(".txt"));
  return name === undefined ? undefined : dir + name;
};

export const SPEC_TEXT: string | undefined = (() => {
  const p = specPath();
  return p === undefined ? undefined : readFileSync(p, "utf8");
})();

const read = (rel: string) =>
  existsSync(SHARED_DIR + rel) ? readFileSync(SHARED_DIR + rel, "utf8") : undefined;
export const FACTS_TEXT = read("resmon/facts.md");
const openapiText = read("resmon/openapi.json");

export interface OpenApiDoc {
  paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }> };
}
export const OPENAPI: OpenApiDoc | undefined =
  openapiText === undefined ? undefined : JSON.parse(openapiText);

export const SAMPLES_DIR = `${SHARED_DIR}resmon/samples/`;
export const HAS_SAMPLES = existsSync(SAMPLES_DIR);

export interface Sample {
  file: string;
  request: { method: string; path: string; body: unknown };
  response: { status: number; body: unknown };
}

export function samples(prefix: string): Sample[] {
  if (!HAS_SAMPLES) return [];
  return readdirSync(SAMPLES_DIR)
    .filter((f) => f.startsWith(prefix) && f.endsWith(".json"))
    .map((file) => ({ file, ...JSON.parse(readFileSync(SAMPLES_DIR + file, "utf8")) }));
}
