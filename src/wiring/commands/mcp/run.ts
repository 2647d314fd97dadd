// The bodies of esign mcp serve and esign mcp tools (declared in verbs.ts).
import { CliError, EXIT } from '../../../cli/exitCodes.js';
import { writeJson } from '../../../cli/output/print.js';
import type { Run } from '../../../cli/verb.js';
import { createMcpServer, listed } from '../../../mcp/server.js';
import { serveStdio } from '../../../mcp/stdio.js';
import { toolTable } from '../../../mcp/toolList.js';
import { toolsOf } from '../../../mcp/toolsets.js';
import { DEFAULT_LIMITS } from '../../../server/limits.js';
import type { serveMcp, tools } from './verbs.js';

export const serveOnStdio: Run<typeof serveMcp> = async (f, o) => {
  const [service, settings, dir, backend] = await Promise.all([
    f.service({ answersClients: true }),
    f.settings(),
    f.journalDir(),
    f.backendLabel(),
  ]);
  // Batches on the journal `esign batch send` keeps for this backend: either resumes the other's.
  const server = createMcpServer({
    service,
    live: settings.live,
    fileAccess: true,
    tools: o.tools,
    batches: { dir, backend },
  });
  const stop = service.keepWorking?.();
  // The longest message is esign serve's largest JSON body: a Bundle with its documents in base64 fits.
  const maxLine = DEFAULT_LIMITS.documentJsonBytes;
  await serveStdio(server, f.io.stdin, (text) => f.io.out.write(text), maxLine)
    .catch((e: Error) => {
      throw new CliError(`Stopped reading stdin: ${e.message}.`, EXIT.INVALID);
    })
    .finally(stop);
};

export const printTools: Run<typeof tools> = async (f, o) => {
  const list = toolsOf(o.all ? 'all' : 'default', true);
  if (f.options.json) return writeJson(f, list.map(listed));
  f.io.out.write(toolTable(list));
};
