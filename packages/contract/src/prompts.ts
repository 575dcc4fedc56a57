/**
 * The server's MCP prompts (contract 1.4), as data other languages can render too (`contract.json`
 * `prompts`): each prompt is one user message built from `lines`, where `{name}` is the argument's
 * value and a line with `when` (or `unless`) appears only when that argument is given (or not).
 * A harness offers a prompt in its prompt menu (Claude Code: as a slash command; not tried here).
 */
import { SCAN_RESOURCE_SCHEME } from "./resources.js";
import { SCAN_TEACHING } from "./scan-teaching.js";

export interface PromptArgumentDef {
  name: string;
  description: string;
  required: boolean;
  /** The longest value taken, in characters. */
  max_length: number;
}

export interface PromptLine {
  text: string;
  when?: string;
  unless?: string;
}

export interface PromptDef {
  name: string;
  title: string;
  description: string;
  arguments: readonly PromptArgumentDef[];
  lines: readonly PromptLine[];
}

export const literature_scan: PromptDef = {
  name: "literature_scan",
  title: "Literature scan",
  description:
    "Run a literature scan on resmon for a question: plan, then follow next_action to verified, cited evidence.",
  arguments: [
    { name: "question", description: "What the scan should answer.", required: true, max_length: 2000 },
    {
      name: "sources",
      description: "Source slugs to search, comma-separated (default: chosen from list_sources).",
      required: false,
      max_length: 400,
    },
    {
      name: "window",
      description: "Publication window, e.g. 2021-01 to 2024-12 (default: none).",
      required: false,
      max_length: 100,
    },
  ],
  lines: [
    { text: "Run a literature scan on resmon (the resmon MCP tools) for this question:" },
    { text: "{question}" },
    { text: "" },
    { text: "Sources: {sources}. Use these slugs as scan_start's sources.", when: "sources" },
    { text: "Sources: call list_sources and choose the ones that fit the question.", unless: "sources" },
    { text: "Window: {window}. Pass it as since and until (YYYY-MM).", when: "window" },
    { text: "" },
    {
      text: "Plan it: 3–6 criteria (C1…) and 6–8 queries, with kinds direct, terminology, contradictory and review each at least once. Show me the brief, queries and sources and ask for my approval before scan_start.",
    },
    // The scan taught in the server's instructions' own words (scan-teaching.ts), line for line.
    ...SCAN_TEACHING.split("\n").map((text) => ({ text })),
    {
      text: `When it is complete, report the result rows with their verification and coverage, and hand me the evidence files: ${SCAN_RESOURCE_SCHEME}://<scan_id>/evidence.md, evidence.json and evidence.bib.`,
    },
  ],
};

export const PROMPTS: readonly PromptDef[] = [literature_scan];

export const PROMPT_BY_NAME: Readonly<Record<string, PromptDef>> = Object.fromEntries(
  PROMPTS.map((p) => [p.name, p]),
);

export type RenderedPrompt =
  | { ok: true; description: string; text: string }
  | { ok: false; field: string; message: string };

/**
 * What an argument loses before it is put into a model's prompt (issue 41): every control
 * character (C0, DEL, C1), the bidirectional formatting controls that reorder what a person sees,
 * and the invisible characters that carry text no one sees (tag characters, zero-width space, word
 * joiner and invisible operators, byte-order mark). Line breaks of every kind become spaces first,
 * and runs of white space one space, so a value stays one line of the field it fills: it can never
 * put a line of its own into the prompt. Zero-width (non-)joiners stay: scripts need them.
 */
// Strings, not literals: the linter refuses control characters in a regular expression.
const LINE_BREAK = "[\t\n\v\f\r\u0085\u2028\u2029]";
const UNSEEN_CHAR =
  "[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|\udb40[\udc00-\udc7f]";
const LINE_BREAKS = new RegExp(LINE_BREAK, "g");
const UNSEEN = new RegExp(UNSEEN_CHAR, "g");

/** An argument as it goes into the prompt: one line, nothing unseen, trimmed (see UNSEEN). */
export function promptArgumentValue(raw: string): string {
  return raw.replace(LINE_BREAKS, " ").replace(UNSEEN, "").replace(/\s+/g, " ").trim();
}

/**
 * The prompt's one user message with its arguments filled in (each cleaned to one line:
 * promptArgumentValue), or the first argument refused (its name and why): a required one missing
 * or blank, one not declared, one too long.
 */
export function renderPrompt(
  def: PromptDef,
  given: Readonly<Record<string, string | undefined>>,
): RenderedPrompt {
  const declared = new Set(def.arguments.map((a) => a.name));
  const unknown = Object.keys(given).find((k) => !declared.has(k));
  if (unknown !== undefined)
    return {
      ok: false,
      field: unknown,
      message: `${def.name} takes no argument named ${JSON.stringify(promptArgumentValue(unknown).slice(0, 60))}; it takes ${[...declared].join(", ")}.`,
    };
  const values: Record<string, string> = {};
  for (const arg of def.arguments) {
    const raw = given[arg.name];
    const value = typeof raw === "string" ? promptArgumentValue(raw) : "";
    if (value === "") {
      if (arg.required) return { ok: false, field: arg.name, message: `Argument '${arg.name}' is required.` };
      continue;
    }
    if (value.length > arg.max_length)
      return {
        ok: false,
        field: arg.name,
        message: `Argument '${arg.name}' is ${value.length} characters; at most ${arg.max_length} are taken.`,
      };
    values[arg.name] = value;
  }
  const text = def.lines
    .filter(
      (l) => (l.when === undefined || l.when in values) && (l.unless === undefined || !(l.unless in values)),
    )
    .map((l) => l.text.replace(/\{([a-z_]+)\}/g, (whole, name: string) => values[name] ?? whole))
    .join("\n");
  return { ok: true, description: def.description, text };
}
