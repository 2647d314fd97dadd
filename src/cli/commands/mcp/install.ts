// esign mcp install --client <claude|cursor|vscode|codex>: the client's configuration for esign's
// MCP server, written into the client's own user-level file (only our entry changes: comments and
// other servers stay), or printed with --print. On stdio the client starts `esign mcp` with the
// backend chosen here (profile or data directory); with --remote it talks to the profile's esign
// serve at /mcp with the profile's key, which is written (into a file only the user can read) and
// never printed. The body: clientConfig.ts (its noun loads it: src/wiring/commands/mcp/index.ts).
import { choiceOption } from '../../flags.js';
import { declareVerb } from '../../verb.js';
import { CLIENTS } from './clients.js';
import { TOOL_SET_NAMES } from './toolSets.js';

export const install = declareVerb(
  'install',
  "Add esign's MCP server to an AI client's user configuration (Claude Code, Cursor, VS Code, Codex)",
  {
    flags: (c) =>
      c
        .addOption(choiceOption('--client <client>', 'the client to configure', CLIENTS).makeOptionMandatory())
        .option('--print', 'print the entry instead of writing it (a key is never printed)')
        .option('--remote', "connect to the profile's esign serve at /mcp with its key, instead of starting esign mcp")
        .addOption(
          choiceOption('--tool-set <set>', 'the tools the client gets (esign mcp --tools)', TOOL_SET_NAMES).default(
            'default',
          ),
        )
        .option('--name <name>', 'the server name in the client', 'esign')
        .option('--config <file>', "the client's configuration file (default: its user-level file)"),
    examples: [
      'esign mcp install --client claude',
      'esign mcp install --client cursor --remote -p staging',
      'esign mcp install --client codex --print',
    ],
  },
);
