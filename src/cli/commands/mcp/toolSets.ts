// The tool sets of src/mcp/toolsets.ts, named here so that the CLI does not load the MCP server to
// declare its flags (a test holds the two lists equal).
export const TOOL_SET_NAMES = ['default', 'all'] as const;
