/** The benchmark's table (figure, value, floor, ratio, goal, pass) and its JSON file. */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export interface Row {
  figure: string;
  value: number;
  floor: number | null;
  /** value / floor where a floor exists. */
  ratio: number | null;
  unit: string;
  goal: string;
  /** null: reported, no goal. */
  pass: boolean | null;
}

export function row(
  figure: string,
  unit: string,
  value: number,
  floor: number | null,
  goal: string,
  pass: boolean | null,
): Row {
  const ratio = floor === null || floor === 0 ? null : value / floor;
  return { figure, value, floor, ratio, unit, goal, pass };
}

/** A value as the table shows it (and as the docs quote a recorded run). */
export function fmt(value: number | null, unit = ""): string {
  if (value === null || Number.isNaN(value)) return "—";
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  const text = value.toLocaleString("en-US", {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  return unit ? `${text} ${unit}` : text;
}

export function renderTable(rows: readonly Row[]): string {
  const header = ["figure", "value", "floor", "ratio", "goal", "pass"];
  const body = rows.map((r) => [
    r.figure,
    fmt(r.value, r.unit),
    fmt(r.floor, r.unit),
    r.ratio === null ? "—" : `${fmt(r.ratio)}×`,
    r.goal,
    r.pass === null ? "info" : r.pass ? "yes" : "NO",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => (cells[i] ?? "").length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...body.map(line)].join("\n");
}

export function writeJson(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** Where each run's rows are kept in the repository: the docs quote timings from these files. */
export function recordedRunPath(repoRoot: string, short: boolean): string {
  return join(repoRoot, "tools", "bench", "results", short ? "short.json" : "full.json");
}

export interface RecordedRun {
  date: string;
  machine: string;
  short: boolean;
  rows: Row[];
}
