"""The embedded assistant's pre-approved tool list, from contract/contract.json (any language)."""
import json
import sys

path = sys.argv[1] if len(sys.argv) > 1 else "contract/contract.json"
with open(path, encoding="utf-8") as f:
    contract = json.load(f)

server = contract["server_name"]  # "resmon"
# The reads, named as the harness names MCP tools: the model may call these without asking.
allowed = [f"mcp__{server}__{name}" for name in contract["read_tools"]]
# The writes stay off the list: each one is confirm-gated.
gated = [f"mcp__{server}__{name}" for name in contract["write_tools"]]

# The same split, read from each tool's own flag: the two must agree.
unflagged = [f"mcp__{server}__{t['name']}" for t in contract["tools"] if not t["requires_confirmation"]]
if sorted(unflagged) != sorted(allowed) or set(allowed) & set(gated):
    raise SystemExit("the pre-approved list must be exactly the tools with requires_confirmation false")

# e.g. claude --allowedTools ",".join(allowed)
print(json.dumps({"allowed": allowed, "gated": gated}))
