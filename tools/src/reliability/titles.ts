export type GroupName = "bad-input" | "protocol" | "faults" | "wrong-corpus" | "load" | "secrets";

/** The table's row name for each group. */
export const GROUP_TITLES: Record<GroupName, string> = {
  "bad-input": "bad input (property-based)",
  protocol: "broken protocol",
  faults: "backend faults",
  "wrong-corpus": "never the wrong corpus",
  load: "load",
  secrets: "secrets",
};
