// esign mcp [serve]: an MCP server on stdio over the backend the profile or environment selects, for
// an AI assistant's MCP client to start (`serve` is the default, so `esign mcp` is enough); `esign
// mcp tools` prints the tool list (docs/mcp.md's is made by it), `esign mcp install` writes a
// client's configuration (a CLI verb: it starts no door). The bodies: run.ts, loaded by index.ts.
import { TOOL_SET_NAMES } from '../../../cli/commands/mcp/toolSets.js';
import { choiceOption } from '../../../cli/flags.js';
import { declareVerb } from '../../../cli/verb.js';

export const serveMcp = declareVerb(
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
  },
);

export const tools = declareVerb('tools', 'Print the tool list (name, marks, size in tools/list, summary)', {
  flags: (c) => c.option('--all', 'the tools of esign mcp --tools all (one per API operation)'),
  examples: ['esign mcp tools', 'esign mcp tools --all --json'],
});
