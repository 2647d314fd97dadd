// Shell completion: the bash script loads in a real bash and completes nouns, verbs, flags and
// local Bundle ids through the built binary; `esign __complete` in-process for the rest.
import { chmodSync, copyFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalEngine } from '../../src/local/engine.js';
import { bundleRequest, tempDir } from '../helpers.js';
import { treeOf } from '../../src/cli/commands/completion/tree.js';
import { OPERATION_TABLE } from '../../src/service/operationTable.js';
import { esignIn, programFor } from './inProcess.js';

const BIN = new URL('../../bin/esign.js', import.meta.url).pathname;
const data = tempDir('esign-completion-');
const bin = tempDir('esign-completion-bin-');
const config = tempDir('esign-completion-config-');
const env = {
  ESIGN_DATA_DIR: data.dir,
  ESIGN_CONFIG_DIR: config.dir,
  ESIGN_BASE_URL: undefined,
  ESIGN_PROFILE: undefined,
};
let bundleId: string;
let personId: string;

beforeAll(async () => {
  const engine = new LocalEngine({ dataDir: data.dir });
  bundleId = (await engine.createBundle(bundleRequest({ label: 'Lease' }))).id;
  personId = (await engine.createPerson({ name: 'Ada Lovelace', channels: [{ email: 'ada@example.com' }] })).id;
  await engine.close();
  // `esign` on PATH, as an installed one would be.
  const shim = join(bin.dir, 'esign');
  writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(shim, 0o755);
});
afterAll(() => {
  for (const d of [data, bin, config]) d.cleanup();
});

/** Completes `line` (the cursor at its end) in bash with the script esign prints. */
async function bashComplete(words: string[]): Promise<string[]> {
  const script = `source <(esign completion bash)
COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}
_esign_complete; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const r = await execa('bash', ['--norc', '--noprofile', '-c', script], {
    env: { ...process.env, ...env, PATH: `${bin.dir}:${process.env.PATH}` },
    extendEnv: false,
  });
  return r.stdout.split('\n').filter(Boolean);
}

describe('bash completion (real bash, built binary)', () => {
  it('completes a noun, a verb and a flag', async () => {
    expect(await bashComplete(['esign', 'bun'])).toEqual(['bundle']);
    expect(await bashComplete(['esign', 'bundle', 'li'])).toEqual(['list']);
    expect(await bashComplete(['esign', 'bundle', 'list', '--sta'])).toEqual(['--status', '--status-in']);
    expect(await bashComplete(['esign', 'bundle', 'get', ''])).toEqual([bundleId]);
  });
  it('completes a value after = (bash splits --status=s into --status, =, s)', async () => {
    expect(await bashComplete(['esign', 'bundle', 'list', '--status', '=', 's'])).toEqual(['se', 'st']);
    expect(await bashComplete(['esign', 'bundle', 'list', '--status', '='])).toContain('co');
  });
});

describe('esign __complete', () => {
  const complete = async (...words: string[]) =>
    (await esignIn(['__complete', '--', ...words], { env })).stdout.split('\n');
  it('offers verbs with descriptions, global flags, and skips option values', async () => {
    expect(await complete('bundle', '')).toContain('list\tList Bundles, newest first');
    const flags = await complete('bundle', 'list', '--');
    expect(flags).toContain('--json\tprint the API object as JSON');
    expect(flags.some((l) => l.startsWith('--all\t'))).toBe(true);
    expect((await complete('--profile', 'x', 'bundle', 'ca'))[0]).toMatch(/^cancel\t/);
    expect(await complete('bundle', 'get', '')).toEqual([`${bundleId}\tLease`]);
  });
  it('completes option values and shells: --status, --until, --kind, --events (after each comma), completion SHELL', async () => {
    expect(await complete('bundle', 'list', '--status', 'c')).toEqual(['co', 'ca']);
    expect(await complete('bundle', 'wait', 'X', '--until', 'do')).toEqual(['docs-ready']);
    expect(await complete('local', 'outbox', '--kind', 're')).toEqual(['reminder', 'reassigned']);
    expect(await complete('webhook', 'create', '--events', 'bundle_sent,packet_v')).toEqual([
      'bundle_sent,packet_viewed',
    ]);
    expect(await complete('webhook', 'events', '--event-type', 'doc_template_c')).toEqual(['doc_template_created']);
    expect(await complete('completion', '')).toEqual(['bash', 'zsh', 'fish']);
    // zsh and fish keep --status=c one word: the values come with the flag.
    expect(await complete('bundle', 'list', '--status=c')).toEqual(['--status=co', '--status=ca']);
    expect(await complete('bundle', 'list', '--status', '=', 'c')).toEqual(['co', 'ca']);
  });
  it('completes profile names after -p and --profile, and for profile use, show and remove', async () => {
    for (const name of ['dev', 'demo'])
      expect((await esignIn(['--data-dir', join(data.dir, name), 'profile', 'add', name], { env })).exitCode).toBe(0);
    expect(await complete('-p', 'de')).toEqual(['dev\tlocal', 'demo\tlocal']);
    expect(await complete('--profile', 'dev', 'bundle', 'list', '-p', 'dem')).toEqual(['demo\tlocal']);
    expect(await complete('--profile=de')).toEqual(['--profile=dev\tlocal', '--profile=demo\tlocal']);
    expect(await complete('profile', 'use', '')).toEqual(['dev\tlocal', 'demo\tlocal']);
    expect(await complete('profile', 'remove', 'dev')).toEqual(['dev\tlocal']);
    expect(await complete('profile', 'add', 'd')).toEqual(['']);
    for (const name of ['dev', 'demo']) await esignIn(['profile', 'remove', name], { env });
  });
  it('completes esign api paths from the operations table, for the method typed', async () => {
    expect(await complete('api', 'PUT', '/bundles/{slug}/c')).toEqual([
      '/bundles/{slug}/cancel/\tCancel a Bundle (cancelBundle)',
    ]);
    const posts = await complete('api', 'post', '/sandbox/packets/');
    expect(posts.map((l) => l.split('\t')[0])).toEqual([
      '/sandbox/packets/{id}/view/',
      '/sandbox/packets/{id}/sign/',
      '/sandbox/packets/{id}/decline/',
      '/sandbox/packets/{id}/reassign/',
    ]);
    expect(await complete('api', 'GET', '/rate')).toEqual([
      '/rate_limit/\tRate-limit status of the key (uses no request) (getRateLimit)',
    ]);
  });
  it('completes ids of the local engine with what names them: a Bundle by its label, a person by name', async () => {
    expect(await complete('bundle', 'get', '')).toContain(`${bundleId}\tLease`);
    expect(await complete('person', 'get', '')).toContain(`${personId}\tAda Lovelace`);
    expect(await complete('packet', 'get', '')).toEqual(['']);
  });

  it('never creates a data directory and offers nothing for unknown words', async () => {
    const r = await esignIn(['__complete', '--', 'bundle', 'get', ''], {
      env: { ...env, ESIGN_DATA_DIR: join(data.dir, 'absent') },
    });
    expect(r.stdout).toBe('');
    expect((await complete('nosuch', '')).join('')).toBe('');
  });
  it('prints scripts for bash, zsh and fish; an unknown shell is a usage error', async () => {
    for (const shell of ['bash', 'zsh', 'fish'])
      expect((await esignIn(['completion', shell])).stdout).toContain('esign __complete --');
    expect((await esignIn(['completion', 'tcsh'])).exitCode).toBe(2);
    expect((await esignIn(['completion', '--help'])).stdout).toContain('source <(esign completion bash)');
  });
});

describe('Bundle ids by the prefix typed', () => {
  it('finds any Bundle, not only the newest hundred', async () => {
    const engine = new LocalEngine({ dataDir: data.dir });
    for (let i = 0; i < 120; i++) await engine.createBundle(bundleRequest({ label: `Newer ${i}` }));
    await engine.close();
    const found = (await esignIn(['__complete', '--', 'bundle', 'get', bundleId.slice(0, 4)], { env })).stdout;
    expect(found.split('\n')).toContain(`${bundleId}\tLease`);
    const whole = (await esignIn(['__complete', '--', 'bundle', 'inspect', bundleId], { env })).stdout;
    expect(whole).toBe(`${bundleId}\tLease`);
  });
});

describe('a Tab without the program (bin/esign.js and dist/completion.json)', () => {
  /** A copy of the shipped files with dist/cli.js left out: what answers there never loaded the program. */
  function withoutProgram(): string {
    const root = join(bin.dir, 'shipped');
    const dist = new URL('../../dist/', import.meta.url).pathname;
    mkdirSync(join(root, 'bin'), { recursive: true });
    mkdirSync(join(root, 'dist'), { recursive: true });
    copyFileSync(BIN, join(root, 'bin', 'esign.js'));
    copyFileSync(new URL('../../package.json', import.meta.url).pathname, join(root, 'package.json'));
    for (const f of readdirSync(dist))
      if ((f.endsWith('.js') && f !== 'cli.js') || f === 'completion.json')
        copyFileSync(join(dist, f), join(root, 'dist', f));
    return join(root, 'bin', 'esign.js');
  }

  it('answers nouns, verbs, flags, choices and esign api paths with dist/cli.js absent', async () => {
    const shipped = withoutProgram();
    const tab = async (...words: string[]) => {
      const r = await execa('node', [shipped, '__complete', '--', ...words], {
        env: { ...process.env, ...env },
        reject: false,
      });
      expect(r.exitCode, r.stderr).toBe(0);
      return r.stdout.split('\n');
    };
    expect(await tab('bun')).toEqual(['bundle\tCreate, send, track and cancel signature Bundles']);
    expect(await tab('bundle', 'list', '--sta')).toEqual([
      expect.stringMatching(/^--status\t/),
      expect.stringMatching(/^--status-in\t/),
    ]);
    expect(await tab('bundle', 'list', '--status', 'c')).toEqual(['co', 'ca']);
    expect(await tab('webhook', 'create', '--events', 'bundle_sent,packet_v')).toEqual(['bundle_sent,packet_viewed']);
    expect(await tab('api', 'GET', '/rate')).toEqual([
      '/rate_limit/\tRate-limit status of the key (uses no request) (getRateLimit)',
    ]);
    expect(await tab('auth', '')).toEqual([expect.stringMatching(/^status\t/)]);
    // What needs the program (ids from the engine) is handed to it: absent here, so it fails.
    const ids = await execa('node', [shipped, '__complete', '--', 'bundle', 'get', ''], {
      env: { ...process.env, ...env },
      reject: false,
    });
    expect(ids.exitCode).not.toBe(0);
    expect(ids.stderr).toMatch(/cli\.js/);
  });

  it('dist/completion.json is the program: its tree and the operations table, as the source builds them', () => {
    const file = JSON.parse(readFileSync(new URL('../../dist/completion.json', import.meta.url), 'utf8'));
    expect(file.tree).toEqual(JSON.parse(JSON.stringify(treeOf(programFor()))));
    expect(file.operations.map((o: { name: string }) => o.name)).toEqual(OPERATION_TABLE.map((o) => o.name));
  });
});
