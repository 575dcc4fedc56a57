/** The groups, in the order the table lists them: each is one test file, test/reliability/<name>.test.ts. */
export const GROUP_TITLES = {
  "bad-input": "bad input (property-based)",
  protocol: "broken protocol",
  faults: "backend faults",
  hostile: "hostile backend",
  "wrong-corpus": "never the wrong corpus",
  load: "load",
  secrets: "secrets",
  stdout: "stdout (backpressure, fatal errors)",
  scan: "scan tools (artifacts, concurrency, kill -9)",
  storage: "storage (full disk, hostile files, token on disk)",
  "escaped-token": "escaped token (BibTeX, LaTeX, HTML, \\u, percent, split) and control characters",
  cancel: "cancel (before and after a write, storms)",
  bytes: "bytes (pipelined requests, stdout unread)",
} as const;

export type GroupName = keyof typeof GROUP_TITLES;
export const GROUP_ORDER = Object.keys(GROUP_TITLES) as GroupName[];
