import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** `<repo root>/../shared/resmon/samples`: what the real backend answered. Tests skip when it is absent. */
const here = dirname(fileURLToPath(import.meta.url));
export const SAMPLES_DIR = join(here, "..", "..", "..", "..", "..", "shared", "resmon", "samples");
export const HAVE_SAMPLES = existsSync(SAMPLES_DIR);

export interface Sample {
  request: { method: string; path: string; body: unknown };
  response: { status: number; headers: Record<string, string>; body: unknown };
}

export function sample(file: string): Sample {
  return JSON.parse(readFileSync(join(SAMPLES_DIR, `${file}.json`), "utf8")) as Sample;
}

export function sampleNames(): string[] {
  return HAVE_SAMPLES ? readdirSync(SAMPLES_DIR).filter((f) => f.endsWith(".json")) : [];
}
