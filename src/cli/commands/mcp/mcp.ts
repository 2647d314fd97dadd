// esign mcp: an MCP server on stdio over the backend the profile or environment selects, for an AI
// assistant's MCP client to start. `--tools` prints the tool list instead (the README's is made by it).
import { CliError, EXIT } from '../../exitCodes.js';
import { defineVerb } from '../../verb.js';

export const mcp = defineVerb(
  'mcp',
  'Serve the esign tools to an MCP client (an AI assistant) on stdin/stdout, over the selected backend',
  {
    flags: (c) => c.option('--tools', 'print the tool list (name, annotations, summary) instead of serving'),
    examples: ['esign mcp', 'esign mcp --data-dir ./esign-data', 'esign mcp --tools'],
    async run(f, o) {
      if (o.tools) {
        const [{ allTools }, { toolTable }, { writeJson }] = await Promise.all([
          import('../../../mcp/server.js'),
          import('../../../mcp/toolList.js'),
          import('../../output/print.js'),
        ]);
        if (f.options.json)
          return writeJson(
            f,
            allTools(true).map((t) => ({ name: t.name, description: t.description, annotations: t.annotations })),
          );
        return void f.io.out.write(toolTable(allTools(true)));
      }
      const [{ createMcpServer }, { serveStdio }] = await Promise.all([
        import('../../../mcp/server.js'),
        import('../../../mcp/stdio.js'),
      ]);
      const [service, settings] = await Promise.all([f.service(), f.settings()]);
      const server = createMcpServer({ service, live: settings.live, fileAccess: true });
      await serveStdio(server, f.io.stdin, (text) => f.io.out.write(text)).catch((e: Error) => {
        throw new CliError(`Stopped reading stdin: ${e.message}.`, EXIT.INVALID);
      });
    },
  },
);
