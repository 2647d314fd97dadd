// What the program is made of beyond the CLI: the backends, and the commands that start another
// door (esign serve: the HTTP server with MCP at /mcp; esign console; esign mcp on stdio; esign
// scenario, which runs the scenario door over a backend). Each body loads when its command runs.
import type { Wiring } from '../cli/main.js';
import { backends } from './backends.js';
import { supportConsole } from './commands/console.js';
import * as mcp from './commands/mcp/index.js';
import * as scenario from './commands/scenario/index.js';
import { serve } from './commands/serve.js';

export const wiring: Wiring = {
  backends,
  doorVerbs: {
    serve: serve.loads(() => import('./commands/serve.run.js')),
    console: supportConsole.loads(() => import('./commands/console.run.js')),
    mcp,
    scenario,
  },
};
