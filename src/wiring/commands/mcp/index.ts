// esign mcp: the noun, its verbs (verbs.ts) with their bodies loaded from run.ts when they run, and
// esign mcp install (a CLI verb).
import { install } from '../../../cli/commands/mcp/install.js';
import type { Action } from '../../../cli/run.js';
import { type Parent, registerVerbs } from '../../../cli/verb.js';
import { serveMcp, tools } from './verbs.js';

export function register(program: Parent, action: Action): void {
  const mcp = program
    .command('mcp')
    .description('An MCP server for AI assistants (esign mcp serves on stdio), its tool list, and client setup');
  const bodies = () => import('./run.js');
  registerVerbs(mcp, action, [
    serveMcp.loads(async () => ({ run: (await bodies()).serveOnStdio })),
    tools.loads(async () => ({ run: (await bodies()).printTools })),
    install.loads(async () => ({ run: (await import('../../../cli/commands/mcp/clientConfig.js')).installClient })),
  ]);
}
