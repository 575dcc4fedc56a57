import { SOURCE_MODES, type SourceMode } from "./coverage.js";
import type { Testkit } from "./testkit.js";

/**
 * The stand-in's controls from a shell: `resmon-testkit serve` reads one command per line on stdin
 * and answers each with one JSON line on stdout (never the token).
 */
export const CONTROL_USAGE = [
  "hold-runs",
  "release-runs",
  "fill-slots [N]",
  "free-slots",
  "fail-sweeps unavailable|run_failed|off [TIMES]",
  `source-outcome SOURCE|* ${SOURCE_MODES.join("|")}|off [TIMES]`,
  "admission [max_concurrent=N] [queue_limit=N] [run_duration_ms=N]",
  "restart",
  "status",
];

export type ControlAnswer = { control: string; ok: true; [key: string]: unknown } | ControlRefusal;
interface ControlRefusal {
  control: string;
  ok: false;
  error: string;
}

const ADMISSION_KEYS = {
  max_concurrent: "maxConcurrent",
  queue_limit: "queueLimit",
  run_duration_ms: "runDurationMs",
} as const;

function count(text: string | undefined, min: number): number | undefined | null {
  if (text === undefined) return undefined;
  const n = Number(text);
  return /^\d+$/.test(text) && n >= min ? n : null;
}

const refuse = (control: string, error: string): ControlRefusal => ({ control, ok: false, error });

/** Apply one control line to a running stand-in. */
export async function applyControl(kit: Testkit, line: string): Promise<ControlAnswer> {
  const [control = "", ...args] = line.trim().split(/\s+/);
  switch (control) {
    case "hold-runs":
      kit.holdRuns();
      return { control, ok: true };
    case "release-runs":
      kit.releaseRuns();
      return { control, ok: true };
    case "fill-slots": {
      const n = count(args[0], 0);
      if (n === null) return refuse(control, `not a count: ${args[0]}`);
      return { control, ok: true, execution_ids: kit.fillSlots(n) };
    }
    case "free-slots":
      kit.freeSlots();
      return { control, ok: true };
    case "fail-sweeps": {
      const [mode, timesText] = args;
      if (mode !== "unavailable" && mode !== "run_failed" && mode !== "off")
        return refuse(control, `unknown mode: ${mode ?? "(none)"}`);
      const times = count(timesText, 1);
      if (times === null) return refuse(control, `not a count: ${timesText}`);
      kit.failSweeps(mode === "off" ? null : mode, times === undefined ? {} : { times });
      return { control, ok: true, mode, ...(times === undefined ? {} : { times }) };
    }
    case "source-outcome": {
      const [source, mode, timesText] = args;
      if (!source) return refuse(control, "name a source slug, or * for every source");
      if (mode !== "off" && !SOURCE_MODES.includes(mode as SourceMode))
        return refuse(control, `unknown mode: ${mode ?? "(none)"}`);
      const times = count(timesText, 1);
      if (times === null) return refuse(control, `not a count: ${timesText}`);
      kit.setSourceOutcome(
        source,
        mode === "off" ? null : (mode as SourceMode),
        times === undefined ? {} : { times },
      );
      return { control, ok: true, source, mode, ...(times === undefined ? {} : { times }) };
    }
    case "admission": {
      const opts: { maxConcurrent?: number; queueLimit?: number; runDurationMs?: number } = {};
      for (const arg of args) {
        const [key = "", value] = arg.split("=");
        const name = ADMISSION_KEYS[key as keyof typeof ADMISSION_KEYS];
        const n = count(value, key === "max_concurrent" ? 1 : 0);
        if (!name) return refuse(control, `unknown setting: ${key}`);
        if (n === undefined || n === null) return refuse(control, `not a count: ${arg}`);
        opts[name] = n;
      }
      kit.setAdmission(opts);
      return { control, ok: true };
    }
    case "restart":
      await kit.restart();
      return { control, ok: true, port: kit.port, runtime_id: kit.runtimeId };
    case "status":
      return { control, ok: true, port: kit.port, runtime_id: kit.runtimeId };
    default:
      return refuse(control, `unknown control; one of: ${CONTROL_USAGE.join(" | ")}`);
  }
}
