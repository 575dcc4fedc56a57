import { z } from "zod";
import { readTool } from "../define.js";

/** The tool's view names (its public vocabulary) and the resmon route serving each. */
export const ANALYTICS_VIEW_PATHS = {
  overview: "/api/analytics/overview",
  volume: "/api/analytics/publication-volume",
  sources: "/api/analytics/source-contribution",
  keywords: "/api/analytics/keyword-contribution",
  "routine-health": "/api/analytics/routine-health",
  "discovery-lag": "/api/analytics/discovery-lag",
} as const;

export type AnalyticsView = keyof typeof ANALYTICS_VIEW_PATHS;
export const ANALYTICS_VIEWS = Object.keys(ANALYTICS_VIEW_PATHS) as [AnalyticsView, ...AnalyticsView[]];

export const get_analytics = readTool({
  name: "get_analytics",
  title: "Analytics",
  description: "Corpus or run summaries. On a small sample say it is insufficient, not a trend.",
  input: () =>
    z.strictObject({
      view: z.enum(ANALYTICS_VIEWS),
      // resmon's analytics take no window except publication-volume's months; an argument the
      // backend would ignore must not look applied, so on other views the answer says it was not.
      window: z.int().min(1).max(120).optional().describe("Months back; view=volume only."),
    }),
  output: () =>
    z.looseObject({
      window_applied: z.boolean().optional(),
      not_applied: z.array(z.looseObject({ argument: z.string(), why: z.string() })).optional(),
    }),
  routes: Object.values(ANALYTICS_VIEW_PATHS).map((path) => ({ method: "GET", path }) as const) as [
    { method: "GET"; path: string },
    ...{ method: "GET"; path: string }[],
  ],
  example: { view: "overview" },
  budget: 10_000,
});
