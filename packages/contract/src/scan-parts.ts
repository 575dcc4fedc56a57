import { z } from "zod";
import { UUID4_PATTERN } from "./schema-parts.js";
import type { RouteRef } from "./types.js";

/** The scan toolset's shared pieces (contract 1.1): ids, the plan, the three artifacts, the envelope. */

export const QUERY_KINDS = [
  "direct",
  "terminology",
  "contradictory",
  "review",
  "mechanism",
  "adjacent",
  "method",
] as const;
/** Kinds every plan must carry at least once. */
export const REQUIRED_QUERY_KINDS = ["direct", "terminology", "contradictory", "review"] as const;
export const SCAN_PHASES = ["retrieve", "screen", "gap", "rank", "complete"] as const;
export const NEXT_ACTIONS = [
  "await_retrieval",
  "retry_start",
  "screen_candidates",
  "write_gap_queries",
  "rank_shortlist",
  "verify_ranked",
  "complete",
  // 1.4: a round that failed or found nothing, and was sent again once, stops here: payload.options.
  "choose_option",
] as const;
export const RANK_ROLES = ["core", "review", "contradicting", "foundational"] as const;
export type QueryKind = (typeof QUERY_KINDS)[number];
export type ScanPhase = (typeof SCAN_PHASES)[number];
export type NextAction = (typeof NEXT_ACTIONS)[number];

const SCAN_ID = UUID4_PATTERN;
export const CRITERION_ID = /^C[1-6]$/;
export const YEAR_MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** A UUID in capitals is the one mistake a caller can fix at once: said in words, not as the pattern. */
function scanIdMessage(input: unknown): string {
  return typeof input === "string" && SCAN_ID.test(input.toLowerCase())
    ? "scan_id has capital letters: use lowercase (the same UUID, lowercased)"
    : "scan_id must be a canonical lowercase UUIDv4 you make (crypto.randomUUID())";
}

export const scanIdArg = () =>
  z
    .string()
    .regex(SCAN_ID, { error: (issue) => scanIdMessage(issue.input) })
    .describe("Lowercase UUIDv4 you make, one per scan.");

const criterionRef = () => z.string().regex(CRITERION_ID);
const queryKind = () => z.enum(QUERY_KINDS);
const docId = () => z.int().min(1);

export const queryPlanArg = () =>
  z
    .strictObject({
      criteria: z
        .array(
          z.strictObject({
            id: criterionRef(),
            text: z.string().min(1),
          }),
        )
        .min(3)
        .max(6)
        .describe("Ids C1…C6."),
      queries: z
        .array(
          z.strictObject({
            id: z.string().min(1),
            kind: queryKind(),
            text: z.string().min(1).describe("Search terms."),
            must_not: z.array(z.string().min(1)).optional().describe("Terms that drop a candidate."),
          }),
        )
        .min(6)
        .max(8)
        .describe(`Kinds ${REQUIRED_QUERY_KINDS.join(", ")} each at least once.`),
    })
    .superRefine((plan, ctx) => {
      const kinds = new Set(plan.queries.map((q) => q.kind));
      const missing = REQUIRED_QUERY_KINDS.filter((k) => !kinds.has(k));
      if (missing.length > 0) {
        ctx.addIssue({
          code: "custom",
          path: ["queries"],
          message: `needs a query of kind ${missing.join(", ")}`,
        });
      }
    });

export const yearMonthArg = (what: string) =>
  z.string().regex(YEAR_MONTH).optional().describe(`${what}, YYYY-MM.`);

export const screenScoresArg = () =>
  z
    .array(
      z.strictObject({
        doc_id: docId(),
        score: z.literal([0, 1, 2, 3]).describe("0 off-topic … 3 central."),
        criteria_hit: z.array(criterionRef()),
        reason: z.string().optional(),
      }),
    )
    .min(1)
    .describe("One score for every item of the current batch.");

export const gapQueriesArg = () =>
  z
    .array(
      z.strictObject({
        text: z.string().min(1),
        criterion: criterionRef().describe("The thin criterion it targets."),
        kind: queryKind().optional(),
      }),
    )
    .max(8)
    .describe("[] skips the round.");

export const rankedEntriesArg = () =>
  z
    .array(
      z.strictObject({
        doc_id: docId(),
        rank: z.int().min(1).describe("1 is best of the whole shortlist; each once."),
        role: z.enum(RANK_ROLES).optional(),
        why: z.string().optional(),
        cite: z
          .strictObject({
            doi: z.string().optional(),
            title: z.string().optional(),
            year: z.int().optional(),
            first_author: z.string().optional().describe("Surname."),
          })
          .optional()
          .describe("Checked by scan_verify against resmon's record."),
      }),
    )
    .min(1)
    .describe("A rank for every paper of the shortlist page.");

/** The envelope every scan tool answers with. */
export const scanEnvelopeShape = () =>
  z.looseObject({
    scan_id: z.string(),
    phase: z.enum(SCAN_PHASES),
    status: z.literal("ok"),
    next_action: z.enum(NEXT_ACTIONS),
    progress: z.looseObject({}),
    payload: z.looseObject({}),
    replayed: z.literal(true).optional(),
  });

/** The parsed shapes of the pieces above: what the scan engine receives and answers. */
export type QueryPlan = z.infer<ReturnType<typeof queryPlanArg>>;
export type Criterion = QueryPlan["criteria"][number];
export type PlannedQuery = QueryPlan["queries"][number];
export type ScreenScore = z.infer<ReturnType<typeof screenScoresArg>>[number];
export type GapQuery = z.infer<ReturnType<typeof gapQueriesArg>>[number];
export type RankedEntry = z.infer<ReturnType<typeof rankedEntriesArg>>[number];
export type Cite = NonNullable<RankedEntry["cite"]>;
export type ScanEnvelope = z.infer<ReturnType<typeof scanEnvelopeShape>>;

/** The routes a scan's retrieval reaches: sweeps and their runs, or the corpus, and the backend's identity. */
export const SCAN_RETRIEVAL_ROUTES: readonly [RouteRef, ...RouteRef[]] = [
  { method: "POST", path: "/api/search/sweep" },
  { method: "GET", path: "/api/executions" },
  { method: "GET", path: "/api/executions/{exec_id}" },
  { method: "GET", path: "/api/executions/{exec_id}/references" },
  { method: "POST", path: "/api/explorer/search" },
  { method: "GET", path: "/api/health" },
];
