// The MCP clients esign mcp install configures, named here so that declaring its flags loads none of
// the configuration code (clientConfig.ts).
export const CLIENTS = ['claude', 'cursor', 'vscode', 'codex'] as const;
export type Client = (typeof CLIENTS)[number];
