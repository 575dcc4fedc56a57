/** The contract this package describes; the server reports it in its MCP initialize answer. */
export const CONTRACT_VERSION = "1.5";
/** The MCP server name (and the `<server>` in `mcp__<server>__<tool>`). */
export const SERVER_NAME = "resmon";
