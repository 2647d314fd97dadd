// The MCP configuration each client reads, and writing esign's entry into it. JSON files (Claude
// Code, Cursor, VS Code) are edited with jsonc-parser, so comments, order and other servers stay;
// Codex's TOML gets our table replaced or appended as text, and the result is parsed to be sure.
import { chmod, mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { delimiter, dirname, join, resolve } from 'node:path';
import { applyEdits, modify, parse as parseJsonc, type ParseError } from 'jsonc-parser';
import { parse as parseToml, stringify as stringifyToml } from 'smol-toml';
import { environment } from '../../../app/environment.js';
import { CliError, EXIT } from '../../exitCodes.js';
import type { Factory } from '../../factory.js';
import { note } from '../../output/print.js';
import type { Client } from './clients.js';

export interface InstallOptions {
  client: Client;
  print?: true;
  remote?: true;
  toolSet: string;
  name: string;
  config?: string;
}

type Entry = Record<string, unknown>;

/** Where each client keeps its user-level MCP servers, and under which key. */
function configFile(client: Client, env: NodeJS.ProcessEnv): string {
  const home = env.HOME || env.USERPROFILE || '.';
  if (client === 'claude') return join(home, '.claude.json');
  if (client === 'cursor') return join(home, '.cursor', 'mcp.json');
  if (client === 'codex') return join(env.CODEX_HOME || join(home, '.codex'), 'config.toml');
  if (process.platform === 'darwin') return join(home, 'Library', 'Application Support', 'Code', 'User', 'mcp.json');
  if (process.platform === 'win32')
    return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'Code', 'User', 'mcp.json');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'Code', 'User', 'mcp.json');
}

const SERVERS_KEY: Record<Exclude<Client, 'codex'>, string> = {
  claude: 'mcpServers',
  cursor: 'mcpServers',
  vscode: 'servers',
};

/** `esign` when the one on PATH is this program, else node and this program's path. */
async function launcher(env: NodeJS.ProcessEnv): Promise<{ command: string; args: string[] }> {
  const self = process.argv[1] ? await realpath(process.argv[1]).catch(() => undefined) : undefined;
  if (!self) return { command: 'esign', args: [] };
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const onPath = await realpath(join(dir, 'esign')).catch(() => undefined);
    if (onPath === self) return { command: 'esign', args: [] };
  }
  return { command: process.execPath, args: [self] };
}

/** The stdio entry: esign mcp with the backend this command was given (global options before it). */
async function stdioEntry(f: Factory, o: InstallOptions): Promise<Entry> {
  const { command, args } = await launcher(f.env);
  const backend: string[] = [];
  const profile = f.options.profile ?? environment(f.env).profile;
  if (profile) backend.push('--profile', profile);
  const dataDir = f.options.dataDir ?? environment(f.env).dataDir;
  if (dataDir) backend.push('--data-dir', resolve(dataDir));
  const entry: Entry = {
    command,
    args: [...args, ...backend, 'mcp', ...(o.toolSet === 'default' ? [] : ['--tools', o.toolSet])],
  };
  return o.client === 'claude' || o.client === 'vscode' ? { type: 'stdio', ...entry } : entry;
}

/** The remote entry: the profile's esign serve at /mcp, with its key. */
async function remoteEntry(f: Factory, o: InstallOptions, key: string): Promise<Entry> {
  const remote = await f.remoteSettings();
  if (!remote)
    throw new CliError(
      '--remote needs a remote backend: a profile with a base URL (esign profile add) or ESIGN_BASE_URL.',
      EXIT.USAGE,
    );
  const path = o.toolSet === 'all' ? '/mcp?tools=all' : '/mcp';
  const url = `${new URL(remote.baseUrl).origin}${path}`;
  const headers = { Authorization: `Token ${key}` };
  if (o.client === 'codex') return { url, http_headers: headers };
  if (o.client === 'cursor') return { url, headers };
  return { type: 'http', url, headers };
}

async function apiKey(f: Factory): Promise<string> {
  const s = await f.settings();
  if (!s.apiKey)
    throw new CliError(
      `--remote needs an API key: ${s.profile ? `profile "${s.profile}" has none` : 'no profile holds one'} (esign profile add ... --api-key-stdin, or ESIGN_API_KEY).`,
      EXIT.USAGE,
    );
  return s.apiKey;
}

const readText = (path: string) =>
  readFile(path, 'utf8').catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return '';
    throw new CliError(`${path}: ${e.message}`, EXIT.FAILURE);
  });

/** The JSON file with our entry set at [servers key, name]; the rest of the text as it was. */
function withJsonEntry(text: string, path: string, at: string[], entry: Entry): string {
  const errors: ParseError[] = [];
  const doc = parseJsonc(text || '{}', errors, { allowTrailingComma: true });
  if (errors.length || (doc !== undefined && (typeof doc !== 'object' || Array.isArray(doc))))
    throw new CliError(`${path} is not a JSON object; nothing was changed.`, EXIT.INVALID);
  const edits = modify(text || '{}', at, entry, { formattingOptions: { insertSpaces: true, tabSize: 2 } });
  const out = applyEdits(text || '{}', edits);
  return out.endsWith('\n') ? out : `${out}\n`;
}

/** The TOML file with our table `[mcp_servers.NAME]` (and its sub-tables) replaced or appended. */
function withTomlEntry(text: string, path: string, name: string, entry: Entry): string {
  try {
    parseToml(text);
  } catch (e) {
    throw new CliError(
      `${path} is not valid TOML (${(e as Error).message.split('\n')[0]}); nothing was changed.`,
      EXIT.INVALID,
    );
  }
  const table = stringifyToml({ mcp_servers: { [name]: entry } }).trim();
  const lines = text.split('\n');
  const head = (l: string) => /^\s*\[/.test(l);
  const ours = (l: string) => {
    const m = /^\s*\[\s*mcp_servers\s*\.\s*("?)([^\]"]+)\1\s*(\.[^\]]*)?\]/.exec(l);
    return m?.[2]?.trim() === name;
  };
  const start = lines.findIndex(ours);
  let out: string;
  if (start < 0) out = `${text.replace(/\s*$/, '')}${text.trim() ? '\n\n' : ''}${table}\n`;
  else {
    let end = start + 1;
    while (end < lines.length && (!head(lines[end]!) || ours(lines[end]!))) end++;
    out = [...lines.slice(0, start), table, '', ...lines.slice(end)].join('\n').replace(/\n{3,}/g, '\n\n');
  }
  const back = (parseToml(out) as { mcp_servers?: Record<string, unknown> }).mcp_servers?.[name];
  if (JSON.stringify(back) !== JSON.stringify(entry))
    throw new CliError(`${path}: our table could not be written cleanly; nothing was changed.`, EXIT.FAILURE);
  return out;
}

/** The key shown where --print would show it: never the key itself. */
const hidden = (entry: Entry, key: string, profile: string | undefined): Entry =>
  JSON.parse(
    JSON.stringify(entry)
      .split(key)
      .join(`<API key of ${profile ? `profile ${profile}` : 'ESIGN_API_KEY'}>`),
  );

export async function installClient(f: Factory, o: InstallOptions): Promise<void> {
  const key = o.remote ? await apiKey(f) : undefined;
  const entry = key ? await remoteEntry(f, o, key) : await stdioEntry(f, o);
  const path = resolve(o.config ?? configFile(o.client, f.env));
  const at = o.client === 'codex' ? ['mcp_servers', o.name] : [SERVERS_KEY[o.client], o.name];
  if (o.print) {
    const shown = key ? hidden(entry, key, (await f.settings()).profile) : entry;
    const nested = { [at[0]!]: { [o.name]: shown } };
    f.io.out.write(o.client === 'codex' ? `${stringifyToml(nested)}\n` : `${JSON.stringify(nested, null, 2)}\n`);
    if (key) note(f, `The key is not printed: esign mcp install --client ${o.client} --remote writes it into ${path}.`);
    return;
  }
  const text = await readText(path);
  const out = o.client === 'codex' ? withTomlEntry(text, path, o.name, entry) : withJsonEntry(text, path, at, entry);
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFile(path, out, { mode: 0o600 });
  // A file holding a key is the user's alone, whoever made it.
  if (key) await chmod(path, 0o600);
  f.io.out.write(`${path}\n`);
  note(
    f,
    `Added "${o.name}" (${key ? `remote: ${String(entry.url)}` : 'stdio: esign mcp'}) to ${path}. Restart the client to load it.`,
  );
}
