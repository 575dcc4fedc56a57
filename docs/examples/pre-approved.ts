// The embedded assistant's pre-approved tool list, from the contract package (TypeScript).
import { preApprovedTools, READ_TOOLS, SERVER_NAME, WRITE_TOOLS } from "@resmon/mcp-contract";

// "mcp__resmon__health", "mcp__resmon__search_corpus", ... : the reads, named as the harness
// names MCP tools. The model may call these without asking.
const allowed: string[] = preApprovedTools(SERVER_NAME);

// The writes stay off the list: each one is confirm-gated (requires_confirmation: true).
const gated: string[] = WRITE_TOOLS.map((name) => `mcp__${SERVER_NAME}__${name}`);

if (allowed.length !== READ_TOOLS.length || gated.some((tool) => allowed.includes(tool))) {
  throw new Error("the pre-approved list must be exactly the reads");
}

// e.g. claude --allowedTools "<allowed joined with commas>"
process.stdout.write(`${JSON.stringify({ allowed, gated })}\n`);
