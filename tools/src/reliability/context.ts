import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestkit, type Testkit, type TestkitOptions } from "@resmon/testkit";
import { CANARIES } from "./canaries.js";

const dirs: string[] = [];

export function tempDir(tag: string): string {
  const dir = mkdtempSync(join(tmpdir(), `resmon-rel-${tag}-`));
  dirs.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** Start a stand-in and register its token as a canary (and again after each restart). */
export async function kitFor(opts: Partial<TestkitOptions> & { stateDir: string }): Promise<Testkit> {
  const kit = await startTestkit({ seed: "small", ...opts });
  CANARIES.add(kit.token);
  return kit;
}

export async function restartKit(kit: Testkit): Promise<void> {
  await kit.restart();
  CANARIES.add(kit.token);
}
