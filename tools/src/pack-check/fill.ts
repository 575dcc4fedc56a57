/** A README snippet's placeholders replaced by this run's paths and the running testkit's. */
import type { Testkit } from "@resmon/testkit";
import { type Launch, PLACEHOLDER, REPO_ROOT } from "../pack-snippets.js";

/** Where the placeholders of the snippets point in this run. */
export interface Where {
  kit: Pick<Testkit, "port" | "portFile" | "stateDir">;
  /** The directory the server tarball was npm-installed into. */
  app: string;
  /** The packed server tarball. */
  tarball: string;
}

/** A path placeholder replaced by this run's; any other word kept as written. */
export function fillPath(word: string, where: Where): string {
  if (word === PLACEHOLDER.node) return process.execPath;
  if (word.startsWith(PLACEHOLDER.clone)) return `${REPO_ROOT}/${word.slice(PLACEHOLDER.clone.length)}`;
  if (word.startsWith(PLACEHOLDER.installed))
    return `${where.app}/${word.slice(PLACEHOLDER.installed.length)}`;
  if (PLACEHOLDER.tarball.test(word)) return where.tarball;
  return word;
}

/** A variable's placeholder value replaced by the running testkit's; the switches kept as written. */
export function fillValue(name: string, value: string, where: Where): string {
  if (name === "RESMON_PORT") return String(where.kit.port);
  if (name === "RESMON_PORT_FILE") return where.kit.portFile ?? "";
  if (name === "RESMON_STATE_DIR") return where.kit.stateDir;
  return value;
}

/** A launch with every placeholder replaced; nothing added that the snippet did not set. */
export function fillIn(launch: Launch, where: Where): Launch {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(launch.env)) env[k] = fillValue(k, v, where);
  return {
    ...launch,
    command: fillPath(launch.command, where),
    args: launch.args.map((a) => fillPath(a, where)),
    env,
  };
}

/** A shell word as the filled-in snippet has it: `NAME=value` values and paths replaced. */
export function fillWord(word: string, where: Where): string {
  const m = /^([A-Z_][A-Z0-9_]*)=(.*)$/s.exec(word);
  if (m?.[1]?.startsWith("RESMON_")) return `${m[1]}=${fillValue(m[1], m[2] ?? "", where)}`;
  return fillPath(word, where);
}
