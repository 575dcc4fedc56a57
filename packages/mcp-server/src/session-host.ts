import { TOOLS_LIST } from "./generated/opening.js";
import type { ToolHost, ToolSide } from "./host.js";
import { hostInfo } from "./host-info.js";

/**
 * A session's host: identity, instructions and tools/list from the contract's generated answers
 * (generated/opening.ts); the rest from the tool side (server.ts: the contract's zod rows, the
 * api-client, the handlers), which `load` gives once: when tools/list has been answered, a second
 * after start, or when a request needs it. The opening and tools/list wait on none of it (bench:
 * spawn → tools/list).
 */
export function sessionHost(
  readOnly: boolean,
  load: () => Promise<ToolSide>,
): ToolHost & { close(): Promise<void> } {
  let loaded: Promise<ToolSide> | undefined;
  const side = () => (loaded ??= load());
  const soon = () => void side().catch(() => undefined);
  setTimeout(soon, 1_000).unref();
  return {
    ...hostInfo(readOnly),
    listTools: () => {
      // After its answer is written: a harness's first call then finds the tool side in.
      setImmediate(soon);
      return TOOLS_LIST[readOnly ? "readOnly" : "full"];
    },
    callTool: async (...call) => (await side()).callTool(...call),
    prompts: {
      list: async () => (await side()).prompts.list(),
      get: async (name, args) => (await side()).prompts.get(name, args),
    },
    resources: {
      list: async (cursor) => (await side()).resources.list(cursor),
      templates: async () => (await side()).resources.templates(),
      read: async (uri, signal) => (await side()).resources.read(uri, signal),
    },
    /** Closes the tool side, if it was loaded. */
    close: async () => {
      if (loaded) await (await loaded.catch(() => undefined))?.close?.();
    },
  };
}
