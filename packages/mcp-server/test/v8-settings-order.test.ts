/**
 * When the bin sets V8 for a stdio server (src/bin/v8-settings.ts): as the SDK side loads, before
 * the server's modules (the SDK, zod, the contract) are imported and allocate; not in the bin's front,
 * where loading node:v8 would add to every cold start (bundle-memory.test.ts checks the bundle).
 */
import { expect, it, vi } from "vitest";

const order: string[] = [];
vi.mock("../src/bin/v8-settings.js", () => ({ applyV8Settings: () => order.push("V8 settings") }));
vi.mock("../src/server.js", () => {
  order.push("server modules");
  const open = () => ({ deliver: () => undefined, close: async () => undefined });
  return { createServer: () => ({ server: { open } }) };
});

it("applies the V8 settings before it imports the server's modules", async () => {
  const { loadServer } = await import("../src/bin/sdk-side.js");
  await loadServer();
  expect(order).toEqual(["V8 settings", "server modules"]);
});
