/** Readers for the tables in the spec's plain text, so tests derive from it instead of restating it. */

export interface SpecToolRow {
  name: string;
  kind: "read" | "write";
  argumentsCell: string;
  returnsCell: string;
  backedByCell: string;
}

const lines = (text: string) => text.split(/\r?\n/);

/** The rows under a `Tool\tArguments\tReturns\tBacked by` header, up to the first blank line. */
export function specToolRows(spec: string): SpecToolRow[] {
  const all = lines(spec);
  const rows: SpecToolRow[] = [];
  let kind: "read" | "write" | undefined;
  let inTable = false;
  for (const line of all) {
    if (line === "Read") kind = "read";
    if (line === "Write") kind = "write";
    if (line.startsWith("Tool\tArguments\tReturns\tBacked by")) {
      inTable = true;
      continue;
    }
    if (inTable && line.trim() === "") inTable = false;
    if (!inTable || kind === undefined) continue;
    const [nameCell = "", argumentsCell = "", returnsCell = "", backedByCell = ""] = line.split("\t");
    rows.push({ name: nameCell.replaceAll("`", ""), kind, argumentsCell, returnsCell, backedByCell });
  }
  return rows;
}

export interface SpecArgument {
  name: string;
  optional: boolean;
  default?: number;
  enumValues?: string[];
}

/**
 * The arguments one Arguments cell names. `x?` and `x=N` are optional; after the word "optional" every
 * later argument is optional; `a` or `b` are alternatives, so neither is required on its own.
 * A parenthesised `(a \| b)` after an argument is its enum.
 */
export function specArguments(cell: string): SpecArgument[] {
  const out: SpecArgument[] = [];
  const re = /(optional\s+)?`([a-z_]+)(\?|=(\d+))?`(\s+\(([^)`]*)\))?(\s+or\s+)?/g;
  let afterOptional = false;
  let previousWasOr = false;
  for (const m of cell.matchAll(re)) {
    const [, optionalWord, name = "", mark, def, , enumText, orWord] = m;
    if (optionalWord) afterOptional = true;
    const alternative = previousWasOr || orWord !== undefined;
    previousWasOr = orWord !== undefined;
    const arg: SpecArgument = {
      name,
      optional: afterOptional || alternative || mark !== undefined,
    };
    if (def !== undefined) arg.default = Number(def);
    if (enumText?.includes("|")) arg.enumValues = enumText.split(/\s*\\?\|\s*/).map((s) => s.trim());
    out.push(arg);
  }
  return out;
}

/** The backticked keys in the first column of the table under `Key\tWhy`. */
export function specWithheldKeys(spec: string): string[] {
  return tableFirstColumn(spec, "Key\tWhy").flatMap((cell) =>
    [...cell.matchAll(/`([a-z_]+)`/g)].map((m) => m[1] ?? ""),
  );
}

/** First-column cells of the table under `Excluded\tWhy`. */
export function specExcludedRows(spec: string): string[] {
  return tableFirstColumn(spec, "Excluded\tWhy");
}

function tableFirstColumn(spec: string, header: string): string[] {
  const all = lines(spec);
  const start = all.indexOf(header);
  if (start < 0) return [];
  const out: string[] = [];
  for (const line of all.slice(start + 1)) {
    if (line.trim() === "") break;
    out.push(line.split("\t")[0] ?? "");
  }
  return out;
}

/** A count the spec states in a two-column `label\tN` row. */
export function specCount(spec: string, labelStart: string): number | undefined {
  const line = lines(spec).find((l) => l.startsWith(labelStart) && /\t\d+$/.test(l));
  return line === undefined ? undefined : Number(line.split("\t").at(-1));
}

/** "Codes: a · b · c, plus d and e for a call that …" → [a, b, c, d, e]. */
export function specErrorCodes(spec: string): string[] {
  const line = lines(spec).find((l) => l.startsWith("Codes: ")) ?? "";
  const list = line.slice("Codes: ".length).split(" for ")[0] ?? "";
  return list
    .split(/\s*(?:·|,|\bplus\b|\band\b)\s*/)
    .map((s) => s.trim())
    .filter((s) => /^[a-z]+(_[a-z]+)*$/.test(s));
}

export function specRoutePairCount(spec: string): number | undefined {
  const m = /reach (\d+) distinct method-and-path pairs/.exec(spec);
  return m?.[1] === undefined ? undefined : Number(m[1]);
}

export function specSettingsGroups(spec: string): string[] {
  const m = /The group is an allowlist: ([a-z, ]+)\./.exec(spec);
  return m?.[1] === undefined ? [] : m[1].split(/,\s*/);
}

/**
 * The routes a Backed-by cell names, as `METHOD /path` with `{…}` parameters, brace lists expanded
 * (`/api/analytics/{overview,publication-volume}`) and query strings dropped.
 */
export function specBackedRoutes(cell: string): { method: string; path: string }[] {
  const out: { method: string; path: string }[] = [];
  for (const m of cell.matchAll(
    /`(?:(GET|POST|PUT)(?:` \+ `(GET|POST|PUT))? )?(\/api\/[^`?]*)(?:\?[^`]*)?`/g,
  )) {
    const methods = [m[1], m[2]].filter((x): x is string => x !== undefined);
    for (const path of expandBraces(m[3] ?? "")) for (const method of methods) out.push({ method, path });
  }
  return out;
}

function expandBraces(path: string): string[] {
  const m = /\{([^}]*,[^}]*)\}/.exec(path);
  if (!m) return [path];
  return (m[1] ?? "").split(",").flatMap((alt) => expandBraces(path.replace(m[0], alt.trim())));
}
