/**
 * The bin's tool side, which session-host.ts loads after tools/list: the tools (server.ts), a full GC
 * once a large answer's frame has left (full-gc.ts), and the start-up probe on the tools' own first
 * discovery, so a first call finds resmon as the probe did (start-probe.ts).
 */
import { reclaimAfterLargeAnswers } from "../backend/large-answers.js";
import type { ToolSide } from "../host.js";
import { createToolSide } from "../server.js";
import { fullGc } from "./full-gc.js";
import { probeAtStart } from "./start-probe.js";

export function startToolSide(): ToolSide {
  reclaimAfterLargeAnswers(fullGc);
  const { side, tools, probe } = createToolSide();
  void probeAtStart(probe());
  return { ...side, close: () => tools.close() };
}
