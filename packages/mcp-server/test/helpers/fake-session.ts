import { afterAll, beforeAll, beforeEach } from "vitest";
import { fakeDiscover, type Responder } from "./fake-backend.js";
import { connectInMemory, isError, parsed } from "./mcp.js";

/**
 * One in-memory SDK client session per test file, over a fake backend that answers with
 * `respond`; the requests it saw are cleared before each test.
 */
export function useFakeSession(respond: Responder) {
  const fake = fakeDiscover(respond);
  let session: Awaited<ReturnType<typeof connectInMemory>>;
  beforeAll(async () => {
    session = await connectInMemory({ env: {}, discoverFn: fake.discoverFn });
  });
  afterAll(async () => session.close());
  beforeEach(() => {
    fake.seen.length = 0;
  });
  async function call(name: string, args: Record<string, unknown>) {
    const result = await session.client.callTool({ name, arguments: args });
    return { error: isError(result), body: parsed(result) };
  }
  return { fake, call };
}
