/**
 * `pnpm reliability`'s table, built from vitest's JSON report of the reliability test files: one
 * row per group (test file), cases tried, passed, failed and skipped, the figures tests noted, and
 * the first line of each failure.
 */
import { basename } from "node:path";
import { GROUP_ORDER, GROUP_TITLES, type GroupName } from "./titles.js";

/** The parts of vitest's JSON report this reads. */
export interface JsonReport {
  testResults: {
    name: string;
    status: string;
    message?: string;
    assertionResults: {
      title: string;
      fullName: string;
      status: string;
      failureMessages: string[];
      meta?: { cases?: number; notes?: string[] };
    }[];
  }[];
}

export interface GroupRow {
  group: string;
  tried: number;
  passed: number;
  failed: number;
  skipped: number;
  notes: string[];
  failures: string[];
}

function groupOf(file: string): GroupName | null {
  const name = basename(file).replace(/\.test\.ts$/, "");
  return name in GROUP_TITLES ? (name as GroupName) : null;
}

/** The first line of a failure; for a property, also its counterexample and why the smallest case failed. */
function summaryOf(text: string): string {
  const lines = text.split("\n").map((l) => l.trim());
  const first = lines.find((l) => l.length > 0) ?? text;
  const extra = lines.filter(
    (l) => l.startsWith("Counterexample:") || l.startsWith("The smallest case failed with:"),
  );
  return [first, ...extra].join(" ").slice(0, 600);
}

export function rowsFrom(report: JsonReport): GroupRow[] {
  const rows = new Map<GroupName, GroupRow>();
  for (const file of report.testResults) {
    const group = groupOf(file.name);
    if (group === null) continue;
    const row = rows.get(group) ?? {
      group: GROUP_TITLES[group],
      tried: 0,
      passed: 0,
      failed: 0,
      skipped: 0,
      notes: [],
      failures: [],
    };
    rows.set(group, row);
    for (const t of file.assertionResults) {
      row.notes.push(...(t.meta?.notes ?? []));
      const cases = t.meta?.cases ?? 1;
      if (t.status === "passed") {
        row.tried += cases;
        row.passed += cases;
      } else if (t.status === "failed") {
        row.tried += cases;
        row.passed += cases - 1;
        row.failed += 1;
        row.failures.push(`${t.fullName}: ${summaryOf(t.failureMessages.join("\n"))}`);
      } else row.skipped += 1;
    }
    // A file that failed outside any test (an import error, a beforeAll that threw) is a failure too.
    if (file.status === "failed" && !file.assertionResults.some((t) => t.status === "failed")) {
      row.failed += 1;
      row.failures.push(`the group stopped early: ${summaryOf(file.message ?? "no message")}`);
    }
  }
  return GROUP_ORDER.flatMap((g) => rows.get(g) ?? []);
}

export function formatTable(rows: readonly GroupRow[]): string {
  const header = ["group", "cases tried", "passed", "failed", "skipped"];
  const total = rows.reduce(
    (t, r) => ({
      tried: t.tried + r.tried,
      passed: t.passed + r.passed,
      failed: t.failed + r.failed,
      skipped: t.skipped + r.skipped,
    }),
    { tried: 0, passed: 0, failed: 0, skipped: 0 },
  );
  const body = [...rows, { group: "total", ...total }].map((r) => [
    r.group,
    String(r.tried),
    String(r.passed),
    String(r.failed),
    String(r.skipped),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(" | ")} |`;
  const rule = `| ${widths.map((w, i) => (i === 0 ? "-".repeat(w) : `${"-".repeat(w - 1)}:`)).join(" | ")} |`;
  return [line(header), rule, ...body.map(line)].join("\n");
}
