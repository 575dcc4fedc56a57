import { z } from "zod";
import { writeTool } from "../define.js";
import {
  queryPlanArg,
  SCAN_RETRIEVAL_ROUTES,
  scanEnvelopeShape,
  scanIdArg,
  yearMonthArg,
} from "../scan-parts.js";
import { sourcesArg } from "../schema-parts.js";

const DEFAULT_TOP = 10;

export const scan_start = writeTool({
  name: "scan_start",
  title: "Start scan",
  description:
    "Start or resume a literature scan: resmon retrieves by sweeps (resmon 2.3+), its corpus (1.6+), or both. Idempotent by scan_id; on retry_start the same call resends unfinished sweeps. Do next_action.",
  idempotent: true,
  openWorld: true,
  input: () =>
    z
      .strictObject({
        scan_id: scanIdArg(),
        brief: z.string().min(1).describe("The question, in Markdown."),
        queries: queryPlanArg(),
        sources: sourcesArg().min(1),
        retrieval: z.enum(["sweep", "corpus", "both"]).optional().describe("Default sweep."),
        profile: z
          .enum(["quick", "standard", "deep"])
          .optional()
          .describe("Default standard; sets max_candidates and per_query."),
        top: z.int().min(1).max(25).optional().describe(`Papers in the result (default ${DEFAULT_TOP}).`),
        foundational: z
          .int()
          .min(0)
          .max(25)
          .optional()
          .describe("Slots for older papers, at most top (default 2)."),
        since: yearMonthArg("Window start"),
        until: yearMonthArg("Window end"),
        max_candidates: z.int().min(1).optional().describe("Pool cap."),
        per_query: z.int().min(1).optional().describe("Results per query."),
        force_gap_round: z.boolean().optional(),
        allow_duplicate: z.boolean().optional(),
      })
      .superRefine((args, ctx) => {
        if (args.foundational !== undefined && args.foundational > (args.top ?? DEFAULT_TOP)) {
          ctx.addIssue({ code: "custom", path: ["foundational"], message: "must not exceed top" });
        }
        if (args.since !== undefined && args.until !== undefined && args.since > args.until) {
          ctx.addIssue({ code: "custom", path: ["since"], message: "must not be after until" });
        }
      }),
  output: () => scanEnvelopeShape(),
  // The catalog is read (once per runtime id) to refuse an unknown source slug by name.
  routes: [...SCAN_RETRIEVAL_ROUTES, { method: "GET", path: "/api/repositories/catalog" }],
  example: {
    scan_id: "0b7e5c1e-3f3a-4c55-9a51-2f1d7c0e9a10",
    brief: "Which papers best show how protein structure is predicted?",
    queries: {
      criteria: [
        { id: "C1", text: "studies protein folding" },
        { id: "C2", text: "predicts protein structure" },
        { id: "C3", text: "reports a method" },
      ],
      queries: [
        { id: "q1", kind: "direct", text: "protein folding" },
        { id: "q2", kind: "terminology", text: "protein structure" },
        { id: "q3", kind: "contradictory", text: "folding" },
        { id: "q4", kind: "review", text: "protein" },
        { id: "q5", kind: "mechanism", text: "structure" },
        { id: "q6", kind: "method", text: "prediction" },
      ],
    },
    sources: ["arxiv", "biorxiv", "pubmed"],
  },
  // Its first envelope: await_retrieval, or a screening batch of 25 when the corpus answered at once.
  budget: 2_500,
});
