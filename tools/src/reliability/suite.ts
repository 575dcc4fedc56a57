import { type GroupRun, type RunOptions, removeTempDirs } from "./context.js";
import { badInput } from "./groups/bad-input.js";
import { backendFaults } from "./groups/faults.js";
import { load } from "./groups/load.js";
import { brokenProtocol } from "./groups/protocol.js";
import { secrets } from "./groups/secrets.js";
import { wrongCorpus } from "./groups/wrong-corpus.js";
import { ALL_PROCESSES } from "./proc.js";
import { Tally } from "./tally.js";
import { GROUP_TITLES, type GroupName } from "./titles.js";

export function groupTitle(name: GroupName): string {
  return GROUP_TITLES[name];
}

export type { GroupName };

const GROUPS: Record<GroupName, (run: GroupRun) => Promise<void>> = {
  "bad-input": badInput,
  protocol: brokenProtocol,
  faults: backendFaults,
  "wrong-corpus": wrongCorpus,
  load,
  secrets,
};

/** Secrets runs last: it accounts for the bytes of every server process the other groups started. */
export const GROUP_ORDER: readonly GroupName[] = [
  "bad-input",
  "protocol",
  "faults",
  "wrong-corpus",
  "load",
  "secrets",
];

export async function runSuite(opts: RunOptions, only: readonly GroupName[] = GROUP_ORDER): Promise<Tally> {
  const tally = new Tally();
  try {
    for (const name of GROUP_ORDER) {
      if (!only.includes(name)) continue;
      tally.group(groupTitle(name));
      const started = Date.now();
      opts.log(`▶ ${name}`);
      try {
        await GROUPS[name]({ tally, opts });
      } catch (err) {
        // A group that cannot finish is a failure of that group, not a reason to skip the rest.
        tally.record(
          groupTitle(name),
          `the group stopped early: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
      opts.log(`  ${name} done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
  } finally {
    for (const proc of ALL_PROCESSES) if (proc.alive) await proc.stop(2000);
    removeTempDirs();
  }
  return tally;
}
