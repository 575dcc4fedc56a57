import { type GroupRun, type RunOptions, removeTempDirs } from "./context.js";
import { badInput } from "./groups/bad-input.js";
import { backendFaults } from "./groups/faults.js";
import { load } from "./groups/load.js";
import { brokenProtocol } from "./groups/protocol.js";
import { secrets } from "./groups/secrets.js";
import { wrongCorpus } from "./groups/wrong-corpus.js";
import { Tally } from "./tally.js";

export type GroupName = "bad-input" | "protocol" | "faults" | "secrets" | "wrong-corpus" | "load";

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
      const started = Date.now();
      opts.log(`▶ ${name}`);
      await GROUPS[name]({ tally, opts });
      opts.log(`  ${name} done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
  } finally {
    removeTempDirs();
  }
  return tally;
}
