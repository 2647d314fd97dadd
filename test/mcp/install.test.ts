// esign mcp install: each client's user-level configuration written (only our entry: comments,
// other servers and other tables stay), the same on a second run, a key only in a file of the
// user's own and never on the terminal; --print shows the entry; the written stdio entry starts a
// server an MCP client can use. bin/esign.js spawned with a HOME of its own.
import { readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { execa } from 'execa';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { afterAll, describe, expect, it } from 'vitest';
import { programEnv, tempDir } from '../helpers.js';
import { BIN } from './support.js';

const home = tempDir('esign-mcp-install-');
afterAll(() => home.cleanup());
const env = {
  ...programEnv(),
  HOME: home.dir,
  XDG_CONFIG_HOME: join(home.dir, '.config'),
  ESIGN_CONFIG_DIR: join(home.dir, 'esign-config'),
};
const esign = (args: string[], input?: string) =>
  execa(process.execPath, [BIN, ...args], { env, extendEnv: false, reject: false, ...(input ? { input } : {}) });

describe('esign mcp install', () => {
  it("writes a stdio entry into VS Code's mcp.json, keeping its comments and other servers; again: the same file", async () => {
    const file = join(home.dir, '.config', 'Code', 'User', 'mcp.json');
    mkdirSync(join(home.dir, '.config', 'Code', 'User'), { recursive: true });
    writeFileSync(file, '{\n  // mine\n  "servers": { "other": { "type": "stdio", "command": "other" } }\n}\n');
    const dataDir = join(home.dir, 'data');
    const r = await esign(['--data-dir', dataDir, 'mcp', 'install', '--client', 'vscode']);
    expect([r.exitCode, r.stdout], r.stderr).toEqual([0, file]);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('// mine');
    const doc = parseJsonc(text) as { servers: Record<string, { type: string; command: string; args: string[] }> };
    expect(doc.servers.other).toEqual({ type: 'stdio', command: 'other' });
    expect(doc.servers.esign).toEqual({
      type: 'stdio',
      command: process.execPath,
      args: [BIN, '--data-dir', dataDir, 'mcp'],
    });
    await esign(['--data-dir', dataDir, 'mcp', 'install', '--client', 'vscode']);
    expect(readFileSync(file, 'utf8')).toBe(text);

    // The entry works: an MCP client starts it as written.
    const entry = doc.servers.esign;
    const client = new Client({ name: 'installed', version: '1' });
    await client.connect(new StdioClientTransport({ command: entry.command, args: entry.args, env }));
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('send_for_signature');
    await client.close();
  });

  it("writes Codex's TOML table, replacing only ours; --print shows it", async () => {
    const file = join(home.dir, '.codex', 'config.toml');
    mkdirSync(join(home.dir, '.codex'), { recursive: true });
    writeFileSync(
      file,
      '# my settings\nmodel = "x"\n\n[mcp_servers.esign]\ncommand = "old"\n\n[mcp_servers.other]\ncommand = "o"\n',
    );
    const r = await esign(['mcp', 'install', '--client', 'codex', '--tool-set', 'all']);
    expect(r.exitCode, r.stderr).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('# my settings\nmodel = "x"\n')).toBe(true);
    const doc = parseToml(text) as { mcp_servers: Record<string, { command: string; args?: string[] }> };
    expect(doc.mcp_servers.other).toEqual({ command: 'o' });
    expect(doc.mcp_servers.esign).toEqual({ command: process.execPath, args: [BIN, 'mcp', '--tools', 'all'] });
    const printed = await esign(['mcp', 'install', '--client', 'codex', '--print']);
    expect(parseToml(printed.stdout)).toEqual({
      mcp_servers: { esign: { command: process.execPath, args: [BIN, 'mcp'] } },
    });
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it("--remote: the profile's esign serve at /mcp with its key, written to a file of the user's own, never printed", async () => {
    const key = 'esk_remote_secret_1234567890';
    const added = await esign(
      [
        'profile',
        'add',
        'staging',
        '--base-url',
        'http://127.0.0.1:41601/api/v2',
        '--api-key-stdin',
        '--use',
        '--no-verify',
      ],
      `${key}\n`,
    );
    expect(added.exitCode, added.stderr).toBe(0);
    const r = await esign(['mcp', 'install', '--client', 'claude', '--remote']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(`${r.stdout}${r.stderr}`).not.toContain(key);
    const file = join(home.dir, '.claude.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect((JSON.parse(readFileSync(file, 'utf8')) as { mcpServers: unknown }).mcpServers).toEqual({
      esign: { type: 'http', url: 'http://127.0.0.1:41601/mcp', headers: { Authorization: `Token ${key}` } },
    });
    const printed = await esign(['mcp', 'install', '--client', 'cursor', '--remote', '--print']);
    expect(printed.exitCode, printed.stderr).toBe(0);
    expect(`${printed.stdout}${printed.stderr}`).not.toContain(key);
    expect(JSON.parse(printed.stdout)).toEqual({
      mcpServers: {
        esign: { url: 'http://127.0.0.1:41601/mcp', headers: { Authorization: 'Token <API key of profile staging>' } },
      },
    });
    // Without a remote backend, --remote is a usage error naming what is missing.
    const none = await esign(['-p', 'nosuch', 'mcp', 'install', '--client', 'cursor', '--remote']);
    expect(none.exitCode).toBe(2);
  });

  it('refuses a configuration file that is not JSON, changing nothing', async () => {
    const file = join(home.dir, '.cursor', 'mcp.json');
    mkdirSync(join(home.dir, '.cursor'), { recursive: true });
    writeFileSync(file, 'not json');
    const r = await esign(['mcp', 'install', '--client', 'cursor']);
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toBe(`esign: ${file} is not a JSON object; nothing was changed.`);
    expect(readFileSync(file, 'utf8')).toBe('not json');
  });
});
