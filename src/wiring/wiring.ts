// What the program is made of beyond the CLI: the backends, and the commands that start another
// door (esign serve: the HTTP server with MCP at /mcp; esign console; esign mcp on stdio; esign
// scenario, which runs the scenario door over a backend).
import type { Wiring } from '../cli/main.js';
import { backends } from './backends.js';
import { supportConsole } from './commands/console.js';
import * as mcp from './commands/mcp.js';
import * as scenario from './commands/scenario/index.js';
import { serve } from './commands/serve.js';

export const wiring: Wiring = { backends, doorVerbs: { serve, console: supportConsole, mcp, scenario } };
