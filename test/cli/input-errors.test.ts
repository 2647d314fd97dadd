// What a user typed is never dropped silently, and bad input gets one plain line (in-process).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, tempDir, argv, useTempDir } from '../helpers.js';
import { esignIn } from './inProcess.js';

const data = useTempDir('esign-input-');
const esign = (args: string[], o: Parameters<typeof esignIn>[1] = {}) =>
  esignIn(args, { ...o, env: { ESIGN_DATA_DIR: data.dir, ...o.env } });
const spec = (body: object) =>
  JSON.stringify({
    packets: [{ name: 'Ada', email: 'ada@example.com' }],
    documents: [{ file_b64: Buffer.from('x').toString('base64') }],
    ...body,
  });

describe('bundle create -f spec.json', () => {
  it('refuses an unknown member, naming it and the close match, and creates nothing', async () => {
    const before = (await esign(['bundle', 'list', '-q', '--all'])).stdout;
    const r = await esign(['bundle', 'create', '-f', '-'], { input: spec({ labl: 'Typo' }) });
    expect(r.exitCode).toBe(2);
    expect(r.stderr.split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^esign: --spec -: unknown member "labl" \(did you mean label\?\)/);
    const far = await esign(['bundle', 'create', '-f', '-'], { input: spec({ zzzzzzzzzzzz: 1 }) });
    expect(far.exitCode).toBe(2);
    expect(far.stderr).toMatch(/unknown member "zzzzzzzzzzzz"\. A spec holds: .*\blabel\b/);
    expect((await esign(['bundle', 'list', '-q', '--all'])).stdout).toBe(before);
  });

  it('applies tags from the spec and --tag flags (added right after creation)', async () => {
    const r = await esign(['bundle', 'create', '-f', '-', '--tag', 'q4', '--tag', 'east', '--json'], {
      input: JSON.stringify({
        packets: [{ name: 'Ada', email: 'ada@example.com' }],
        documents: [{ file_path: fixture('contract.pdf') }],
        tags: ['spec-tag'],
      }),
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).tags).toEqual(['spec-tag', 'q4', 'east']);
    const bad = await esign(['bundle', 'create', '-f', '-'], { input: spec({ tags: 'one' }) });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/"tags" must be a list of strings/);
  });

  it('checks the reminder flags as whole numbers before anything is sent', async () => {
    const r = await esign(argv`bundle create --file ${fixture('contract.pdf')} --signer ${'A <a@example.com>'}
      --reminder-offset soon`);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe('esign: --reminder-offset expects a whole number, got "soon".');
  });
});

describe('messages name the file and the problem', () => {
  it('a directory given as a file says so', async () => {
    const dir = join(data.dir, 'a-folder');
    mkdirSync(dir, { recursive: true });
    const r = await esign(['bundle', 'create', '--file', dir, '--signer', 'A <a@example.com>']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(`esign: --file ${dir}: is a directory, not a file`);
    const s = await esign(['bundle', 'create', '-f', dir]);
    expect(s.stderr).toBe(`esign: --spec ${dir}: is a directory, not a file`);
  });

  it("a corrupt PDF is one plain sentence, not the parser's internals", async () => {
    const r = await esign(['bundle', 'create', '--file', fixture('corrupt.pdf'), '--signer', 'A <a@example.com>']);
    expect(r.exitCode).toBe(3);
    expect(r.stderr.split('\n')[0]).toMatch(/The PDF is corrupt or unreadable\.$/);
    expect(r.stderr).not.toMatch(/instance of|PDFDict|Expected|at \w+ \(/);
  });

  it('a corrupt profiles.json names the file', async () => {
    const config = tempDir('esign-config-');
    try {
      writeFileSync(join(config.dir, 'profiles.json'), '{"profiles": {"dev": ');
      const r = await esign(['bundle', 'list'], { env: { ESIGN_CONFIG_DIR: config.dir } });
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^esign: ${join(config.dir, 'profiles.json')} is damaged \\(not valid JSON`));
      expect(r.stderr.split('\n')).toHaveLength(1);
    } finally {
      config.cleanup();
    }
  });

  it('a corrupt database names the file', async () => {
    const bad = tempDir('esign-baddb-');
    try {
      writeFileSync(join(bad.dir, 'esign.db'), 'this is not a database '.repeat(100));
      const r = await esignIn(['bundle', 'list'], { env: { ESIGN_DATA_DIR: bad.dir } });
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^esign: ${join(bad.dir, 'esign.db')} is damaged or not an esign database`));
    } finally {
      bad.cleanup();
    }
  });
});

describe('confirmations', () => {
  it('answering "no" changes nothing and says so', async () => {
    const slug = (
      await esign(['bundle', 'create', '--file', fixture('contract.pdf'), '--signer', 'Bo <bo@example.com>', '-q'])
    ).stdout;
    const r = await esign(['bundle', 'cancel', slug], { answers: { confirm: [false] } });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe('esign: Not confirmed: nothing was changed.');
    expect(JSON.parse((await esign(['bundle', 'get', slug, '--json'])).stdout).status).toBe('se');
  });
});

describe('the port decides, not the base URL', () => {
  it('local info is answered by the engine (no SQL in the CLI)', async () => {
    const r = await esign(['local', 'info', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const info = JSON.parse(r.stdout);
    expect(info).toMatchObject({ data_dir: data.dir, database: join(data.dir, 'esign.db') });
    expect(info.bundles).toBeGreaterThan(0);
  });

  it("downloads a file through the port's file links on the embedded engine", async () => {
    await esign(['local', 'features', 'enable', 'early_files']);
    const slug = (
      await esign(['bundle', 'create', '--file', fixture('contract.pdf'), '--signer', 'Cy <cy@example.com>', '-q'])
    ).stdout;
    const dir = join(data.dir, 'dl');
    const r = await esign(['bundle', 'files', slug, '--download', dir]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout.split('\n').map((l) => l.split('\t')[1])).toContain(join(dir, 'contract.pdf'));
    const expired = await esign(['packet', 'coe', 'nope', '--download', join(dir, 'x.pdf')]);
    expect(expired.exitCode).toBe(6);
  });
});
