import { describe, expect, it } from "vitest";
import { READ_TOOLS, TOOL_BY_NAME, WRITE_CHECKS, WRITE_ROUTES, WRITE_TOOLS } from "../src/index.js";

describe("what became of a write (the write outcome of a write tool's error)", () => {
  it("names, for every write tool of the table and only those, the read that shows its outcome", () => {
    expect(Object.keys(WRITE_CHECKS).sort()).toEqual([...WRITE_TOOLS].sort());
    for (const [tool, check] of Object.entries(WRITE_CHECKS)) {
      // update_settings answers the group's values itself: no read tool has them.
      if (tool !== "update_settings") expect(READ_TOOLS).toContain(check.tool);
      expect(check.how).toContain(check.tool);
    }
  });

  it("counts as writes the routes only write tools reach, never a GET or a read tool's POST", () => {
    for (const route of WRITE_ROUTES) expect(route.method).not.toBe("GET");
    const readRoutes = READ_TOOLS.flatMap((name) => TOOL_BY_NAME[name].routes);
    for (const route of WRITE_ROUTES)
      expect(readRoutes.some((r) => r.method === route.method && r.path === route.path)).toBe(false);
    // Every write tool has a write route (the scan's sweep included) but scan_verify, whose writes
    // are the scan's own state on disk: it only reads resmon.
    for (const name of WRITE_TOOLS) {
      const routes = TOOL_BY_NAME[name].routes;
      if (name === "scan_verify") continue;
      expect(
        routes.some((r) => WRITE_ROUTES.some((w) => w.method === r.method && w.path === r.path)),
        name,
      ).toBe(true);
    }
  });

  it("a scan write whose outcome is unknown points to scan_result's next_action, never to a call of its own", () => {
    // Issue 40: after an HTTP 503 the text said "scan_continue goes on from there" while the
    // scan's next_action could be choose_option ("take one of detail.options"): two instructions.
    for (const tool of ["scan_start", "scan_continue"] as const) {
      const { how } = WRITE_CHECKS[tool];
      expect(how).toMatch(/next_action/);
      expect(how).not.toMatch(/scan_continue|scan_start|scan_verify/);
    }
  });
});
