// esign mcp [serve]: an MCP server on stdio over the backend the profile or environment selects, for
// an AI assistant's MCP client to start (`serve` is the default, so `esign mcp` is enough); `esign
// mcp tools` prints the tool list (the README's is made by it), `esign mcp install` writes a
// client's configuration (a CLI verb: it starts no door).
import { install } from '../../cli/commands/mcp/install.js';
import { TOOL_SET_NAMES } from '../../cli/commands/mcp/toolSets.js';
import { CliError, EXIT } from '../../cli/exitCodes.js';
import { choiceOption } from '../../cli/flags.js';
import type { Action } from '../../cli/run.js';
import { type Parent, defineVerb, registerVerbs } from '../../cli/verb.js';

export const serveMcp = defineVerb(
  'serve',
  'Serve the esign tools to an MCP client (an AI assistant) on stdin/stdout, over the selected backend (the default)',
  {
    commandOptions: { isDefault: true },
    flags: (c) =>
      c.addOption(
        choiceOption(
          '--tools <set>',
          'default: tools shaped like the jobs (few, cheap to carry); all: one tool per API operation',
          TOOL_SET_NAMES,
        ).default('default'),
      ),
    examples: ['esign mcp serve', 'esign mcp serve --tools all', 'esign mcp serve --data-dir ./esign-data'],
    async run(f, o) {
      const [{ createMcpServer }, { serveStdio }, { DEFAULT_LIMITS }] = await Promise.all([
        import('../../mcp/server.js'),
        import('../../mcp/stdio.js'),
        import('../../server/limits.js'),
      ]);
      const [service, settings] = await Promise.all([f.service(), f.settings()]);
      const server = createMcpServer({ service, live: settings.live, fileAccess: true, tools: o.tools });
      const stop = service.keepWorking?.();
      // The longest message is esign serve's largest JSON body: a Bundle with its documents in base64 fits.
      const maxLine = DEFAULT_LIMITS.documentJsonBytes;
      await serveStdio(server, f.io.stdin, (text) => f.io.out.write(text), maxLine)
        .catch((e: Error) => {
          throw new CliError(`Stopped reading stdin: ${e.message}.`, EXIT.INVALID);
        })
        .finally(stop);
    },
  },
);

export const tools = defineVerb('tools', 'Print the tool list (name, marks, size in tools/list, summary)', {
  flags: (c) => c.option('--all', 'the tools of esign mcp --tools all (one per API operation)'),
  examples: ['esign mcp tools', 'esign mcp tools --all --json'],
  async run(f, o) {
    const [{ toolsOf }, { toolTable }, { listed }, { writeJson }] = await Promise.all([
      import('../../mcp/toolsets.js'),
      import('../../mcp/toolList.js'),
      import('../../mcp/server.js'),
      import('../../cli/output/print.js'),
    ]);
    const list = toolsOf(o.all ? 'all' : 'default', true);
    if (f.options.json) return writeJson(f, list.map(listed));
    f.io.out.write(toolTable(list));
  },
});

export function register(program: Parent, action: Action): void {
  const mcp = program
    .command('mcp')
    .description('An MCP server for AI assistants (esign mcp serves on stdio), its tool list, and client setup');
  registerVerbs(mcp, action, [serveMcp, tools, install]);
}
