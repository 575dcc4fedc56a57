/** Per-group counts of cases tried, passed and failed, with the first failures kept for the report. */
export interface GroupCount {
  group: string;
  tried: number;
  passed: number;
  failed: number;
  failures: string[];
  notes: string[];
}

export class Tally {
  private readonly groups = new Map<string, GroupCount>();

  group(name: string): GroupCount {
    let g = this.groups.get(name);
    if (!g) {
      g = { group: name, tried: 0, passed: 0, failed: 0, failures: [], notes: [] };
      this.groups.set(name, g);
    }
    return g;
  }

  /** Record one case; `problem` null means it passed. */
  record(group: string, problem: string | null): void {
    const g = this.group(group);
    g.tried++;
    if (problem === null) g.passed++;
    else {
      g.failed++;
      if (g.failures.length < 20) g.failures.push(problem);
    }
  }

  note(group: string, text: string): void {
    this.group(group).notes.push(text);
  }

  all(): GroupCount[] {
    return [...this.groups.values()];
  }

  get failed(): number {
    return this.all().reduce((n, g) => n + g.failed, 0);
  }
}

export function formatTable(rows: readonly GroupCount[]): string {
  const header = ["group", "cases tried", "passed", "failed"];
  const body = rows.map((r) => [r.group, String(r.tried), String(r.passed), String(r.failed)]);
  const total = rows.reduce(
    (t, r) => ({ tried: t.tried + r.tried, passed: t.passed + r.passed, failed: t.failed + r.failed }),
    { tried: 0, passed: 0, failed: 0 },
  );
  body.push(["total", String(total.tried), String(total.passed), String(total.failed)]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(" | ")} |`;
  const rule = `| ${widths.map((w, i) => (i === 0 ? "-".repeat(w) : `${"-".repeat(w - 1)}:`)).join(" | ")} |`;
  return [line(header), rule, ...body.map(line)].join("\n");
}
