/**
 * The probe at start: once, in the background, the server asks the resmon it was pointed at whether
 * it answers, and says so on stderr, which is the harness's log. A harness's "connected" only means
 * this process started; this line says whether tool calls will reach resmon, and if not, why, in
 * doctor's words (the refusal's message and doctor's "what to do"). It never fails the start and
 * nothing waits on it: resmon may start later, and a call looks again until it finds one.
 * The discovery is the server's own first (backend/discovery.ts): what it found is the calls'.
 * Started by the bin (cli.ts) once the tool side is loaded; nothing waits on it.
 */
import type { Discovery, DiscoveryRefusal } from "@resmon/api-client";
import { log } from "../log.js";
import { whatToDo } from "./doctor.js";

/** The probe's prefix on stderr: a harness's log (and a test) finds its line by it. */
export const PROBE_PREFIX = "start-up check:";

/**
 * Where something did answer on the named port, the line says so: an unguarded resmon answered its
 * health, a 401 came from a server refusing the token, something else answered as not resmon.
 */
type DiscoveryRefusalKind = DiscoveryRefusal["kind"];

const OUTCOME_WORDS: Partial<Record<DiscoveryRefusalKind, string>> = {
  unguarded_resmon: "a resmon answered but is not attached to",
  token_refused: "a server answered on the named port but refused the token",
  not_resmon: "something answered on the named port, but not as resmon",
};

/** What the probe says about one discovery, one line. */
export function probeLine(found: Discovery): string {
  if (found.ok) {
    const health = found.health as { version?: unknown };
    const version = typeof health?.version === "string" ? ` (resmon ${health.version})` : "";
    return `${PROBE_PREFIX} resmon answered at ${found.baseUrl}${version}; tool calls will reach it.`;
  }
  const r = found.refusal;
  const outcome = OUTCOME_WORDS[r.kind] ?? "no resmon answered";
  return (
    `${PROBE_PREFIX} ${outcome} (${r.kind}): ${r.message} What to do: ${whatToDo(r)} ` +
    "This server keeps running and looks again on every tool call; `resmon-mcp doctor` with the same " +
    "variables is the check."
  );
}

/** Logs the line of the discovery `found`; resolves when it has said it, never rejects. */
export async function probeAtStart(found: Promise<Discovery>): Promise<void> {
  try {
    log(probeLine(await found));
  } catch (err) {
    log(`${PROBE_PREFIX} could not run (${err instanceof Error ? err.name : "error"}).`);
  }
}
