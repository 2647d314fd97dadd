// The doors esign serve hosts beside its own (API, sandbox, file links, pages, console): MCP at /mcp
// (Streamable HTTP), behind the API's guard and counting against the same limiter.
import type { DoorMount } from '../server/app.js';

const mcpDoor: DoorMount = async (host) => {
  const { registerMcp, jsonRpcError, MCP_PATH } = await import('../mcp/http.js');
  return {
    name: 'mcp',
    paths: [MCP_PATH],
    // Agents read JSON-RPC: a refusal before the exchange is a JSON-RPC error carrying the Error object.
    answer: (_req, reply, e) => reply.type('application/json; charset=utf-8').send(jsonRpcError(e)),
    register: (app) => registerMcp(app, host),
  };
};

export const serverDoors: readonly DoorMount[] = [mcpDoor];
