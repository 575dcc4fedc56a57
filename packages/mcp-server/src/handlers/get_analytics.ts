import { ANALYTICS_VIEW_PATHS } from "@resmon/mcp-contract";
import type { Handler } from "../context.js";
import { answerOf } from "../shape/answer.js";
import { requireRecord } from "../shape/values.js";

/**
 * The tool's view names are its vocabulary; three differ from the routes that serve them. resmon's
 * analytics take no window except publication-volume's `months`, so a window is applied there and,
 * on any other view, the answer says it was not: an argument the backend would ignore must never look applied.
 */
export const get_analytics: Handler<"get_analytics"> = async (args, { backend }) => {
  const view = args.view;
  const route = ANALYTICS_VIEW_PATHS[view];
  const window = args.window;
  const data = await backend.call<unknown>((c) => {
    switch (view) {
      case "overview":
        return c.GET("/api/analytics/overview");
      case "volume":
        return window === undefined
          ? c.GET("/api/analytics/publication-volume")
          : c.GET("/api/analytics/publication-volume", { params: { query: { months: window } } });
      case "sources":
        return c.GET("/api/analytics/source-contribution");
      case "keywords":
        return c.GET("/api/analytics/keyword-contribution");
      case "routine-health":
        return c.GET("/api/analytics/routine-health");
      case "discovery-lag":
        return c.GET("/api/analytics/discovery-lag");
    }
  });
  const answer: Record<string, unknown> = {
    view,
    route: `GET ${route}`,
    data: Array.isArray(data) ? { rows: data } : requireRecord(data, "an analytics summary"),
  };
  if (view === "volume") {
    answer.window_months = window ?? null;
    answer.window_applied = window !== undefined;
  } else if (window !== undefined) {
    answer.window_applied = false;
    answer.not_applied = [
      {
        argument: "window",
        why: `window was not applied: resmon's ${route} takes no window, so this is its default answer. Only view "volume" takes one.`,
      },
    ];
  }
  return answerOf("get_analytics", answer);
};
