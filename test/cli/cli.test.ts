// The CLI run in-process (the same program as the binary, with a captured IO and a real engine on a
// temp dir); what needs a real process (version fast path, a closed pipe, concurrent processes) is
// run with execa on the built binary.
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { fixture, argv, useTempDir } from '../helpers.js';
import { esignIn } from './inProcess.js';

const BIN = new URL('../../bin/esign.js', import.meta.url).pathname;
const data = useTempDir('esign-cli-');

function esign(args: string[], opts: { input?: string; env?: Record<string, string> } = {}) {
  return esignIn(args, { input: opts.input, env: { ESIGN_DATA_DIR: data.dir, ...opts.env } });
}

function spawned(args: string[], opts: { input?: string; env?: Record<string, string> } = {}) {
  return execa('node', [BIN, ...args], {
    reject: false,
    input: opts.input,
    env: { ESIGN_DATA_DIR: data.dir, NO_COLOR: '1', ...opts.env },
    extendEnv: true,
  });
}

describe('esign CLI', () => {
  it('prints its version', async () => {
    const r = await spawned(['--version']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('creates a Bundle from flags and prints tab-separated key/values when piped', async () => {
    const r = await esign(argv`bundle create --file ${fixture('contract.pdf')}
      --signer ${'Ada Lovelace <ada@example.com>'} --label ${'CLI test'}`);
    expect(r.exitCode, r.stderr).toBe(0);
    const kv = Object.fromEntries(r.stdout.split('\n').map((l) => l.split('\t')));
    expect(kv.status).toBe('se');
    expect(kv.label).toBe('CLI test');
    expect(kv.id).toMatch(/^[A-Za-z0-9]{10}$/);
    expect(r.stderr).toBe('');
  });

  it('creates from a JSON spec on stdin and prints the API object with --json', async () => {
    const spec = {
      label: 'From stdin',
      packets: [{ key: 'a', name: 'Ann', email: 'ann@example.com' }],
      documents: [
        { key: 'c', file_b64: (await import('node:fs')).readFileSync(fixture('contract.pdf')).toString('base64') },
      ],
    };
    const r = await esign(['bundle', 'create', '-f', '-', '--json'], { input: JSON.stringify(spec) });
    expect(r.exitCode, r.stderr).toBe(0);
    const b = JSON.parse(r.stdout);
    expect(b.label).toBe('From stdin');
    expect(b.packets[0].email).toBe('ann@example.com');
    expect(b.status).toBe('se');
  });

  it('creates from a spec file whose documents name local files (file_path)', async () => {
    const r = await esign(['bundle', 'create', '-f', fixture('bundle-spec.json'), '--draft', '-q']);
    expect(r.exitCode, r.stderr).toBe(0);
    const slug = r.stdout.trim();
    const got = JSON.parse((await esign(['bundle', 'get', slug, '--json'])).stdout);
    expect(got.status).toBe('dr');
    expect(got.custom_key).toBe('crm-4711');
    expect(got.documents).toEqual([{ key: 'contract', name: 'contract.pdf' }]);
  });

  it('lists with -q (ids), --json (array) and tab-separated rows, with filters', async () => {
    const ids = (await esign(['bundle', 'list', '-q'])).stdout.trim().split('\n');
    expect(ids.length).toBeGreaterThanOrEqual(3);
    const json = JSON.parse((await esign(['bundle', 'list', '--json', '--status', 'dr'])).stdout);
    expect(json.every((b: { status: string }) => b.status === 'dr')).toBe(true);
    const rows = (await esign(['bundle', 'list', '--search', 'ann@example.com'])).stdout.trim().split('\n');
    expect(rows).toHaveLength(1);
    expect(rows[0].split('\t')[2]).toBe('From stdin');
  });

  it('an empty list is success with no output', async () => {
    const r = await esign(['bundle', 'list', '--tag', 'no-such-tag']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('');
  });

  it('runs the draft lifecycle: validate, send, tags, events, cancel', async () => {
    const slug = (
      await esign(argv`bundle create --file ${fixture('contract.pdf')} --signer ${'Bo <bo@example.com>'}
        --draft -q`)
    ).stdout.trim();
    const v = JSON.parse((await esign(['bundle', 'validate', slug, '--json'])).stdout);
    expect(v).toEqual({ can_send: true, msg: expect.any(String), n_docs: 1 });
    expect(JSON.parse((await esign(['bundle', 'send', slug, '--json'])).stdout).status).toBe('se');
    expect(
      JSON.parse((await esign(['bundle', 'tags', 'add', slug, 'q4', 'sales', 'q4', '--json'])).stdout).tags,
    ).toEqual(['q4', 'sales']);
    expect(JSON.parse((await esign(['bundle', 'tags', 'remove', slug, 'q4', 'absent', '--json'])).stdout).tags).toEqual(
      ['sales'],
    );
    const kinds = (await esign(['bundle', 'events', slug])).stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t')[1]);
    expect(kinds).toEqual(['bc', 'bd', 'bl', 'ns', 'ta', 'tr']);
    const refused = await esign(['bundle', 'cancel', slug]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/--yes/);
    expect(JSON.parse((await esign(['bundle', 'cancel', slug, '--yes', '--json'])).stdout).status).toBe('ca');
    const again = await esign(['bundle', 'cancel', slug, '--yes']);
    expect(again.exitCode).toBe(7);
    expect(again.stderr).toMatch(/^esign: .*cancelled/);
  });

  it('maps API errors to documented exit codes with a one-line message', async () => {
    const notFound = await esign(['bundle', 'get', 'nope']);
    expect(notFound.exitCode).toBe(6);
    expect(notFound.stderr.trim().split('\n')).toHaveLength(1);
    const invalid = await esign(argv`bundle create --file ${fixture('not-a-pdf.txt')}
      --signer ${'A <a@example.com>'}`);
    expect(invalid.exitCode).toBe(3);
    expect(invalid.stderr).toMatch(/documents\[0\]\.file_index: The file is not a PDF/);
    const conflict = await esign([
      'bundle',
      'files',
      (await esign(['bundle', 'list', '-q', '--limit', '1'])).stdout.trim(),
    ]);
    expect(conflict.exitCode).toBe(7);
  });

  it('reports the wire error object on stderr with --json', async () => {
    const r = await esign(argv`bundle create --file ${fixture('contract.pdf')} --signer ${'A <not-an-email>'}
      --json`);
    expect(r.exitCode).toBe(2);
    const r2 = await esign(['bundle', 'create', '-f', '-', '--json'], {
      input: JSON.stringify({
        packets: [{ name: 'A', email: 'a@example.com' }],
        documents: [{ file_b64: 'aGVsbG8=', filename: 'x'.repeat(51) }],
      }),
    });
    expect(r2.exitCode).toBe(3);
    const err = JSON.parse(r2.stderr);
    expect(err.status).toBe(400);
    expect(err.errors[0]).toMatchObject({
      field: 'documents[0].filename',
      messsage: expect.stringMatching(/50 characters/),
    });
  });

  it('usage errors exit 2', async () => {
    expect((await esign(['bundle', 'frobnicate'])).exitCode).toBe(2);
    expect((await esign(['bundle', 'list', '--limit', 'many'])).exitCode).toBe(2);
    expect((await esign(['bundle', 'create'])).exitCode).toBe(2);
    expect((await esign(['bundle', 'create', '--file', '/no/such.pdf', '--signer', 'a@example.com'])).exitCode).toBe(2);
  });

  it('documents its exit codes', async () => {
    const r = await esign(['help', 'exit-codes']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^ 6 {2}Not found/m);
  });

  it('manages the local account: features, users, outbox, clock', async () => {
    expect((await esign(['local', 'features', 'enable', 'teams', '--json'])).stdout).toMatch(/teams/);
    expect((await esign(['local', 'features', 'enable', 'nonsense'])).exitCode).toBe(3);
    const test = await esign(argv`bundle create --file ${fixture('contract.pdf')}
      --signer ${'Zed <zed@example.com>'} --test`);
    expect(test.exitCode).toBe(3);
    expect(test.stderr).toMatch(/verified email addresses/);
    expect((await esign(['local', 'users', 'add', 'zed@example.com'])).exitCode).toBe(0);
    expect(
      (
        await esign(argv`bundle create --file ${fixture('contract.pdf')} --signer ${'Zed <zed@example.com>'}
          --test`)
      ).exitCode,
    ).toBe(0);
    const outbox = (await esign(['local', 'outbox', '--to', 'zed@example.com'])).stdout.trim().split('\n');
    expect(outbox).toHaveLength(1);
    expect(outbox[0].split('\t')[1]).toBe('signing_request');
    const clock = JSON.parse((await esign(['local', 'clock', 'advance', '2h', '--json'])).stdout);
    expect(clock.offset_ms).toBe(7_200_000);
    expect((await esign(['local', 'clock', 'advance', 'soon'])).exitCode).toBe(2);
  });

  it('reminds a signer once per hour of engine time', async () => {
    const b = JSON.parse(
      (
        await esign(argv`bundle create --file ${fixture('contract.pdf')} --signer ${'Rae <rae@example.com>'}
          --json`)
      ).stdout,
    );
    const packet = b.packets[0].id;
    expect((await esign(['packet', 'remind', packet])).exitCode).toBe(0);
    const second = await esign(['packet', 'remind', packet]);
    expect(second.exitCode).toBe(3);
    expect(second.stderr).toMatch(/once per hour/);
    await esign(['local', 'clock', 'advance', '61m']);
    expect((await esign(['packet', 'remind', packet])).exitCode).toBe(0);
    expect(
      (await esign(['local', 'outbox', '--packet', packet, '--kind', 'reminder', '-q'])).stdout.trim().split('\n'),
    ).toHaveLength(2);
  });
});

describe('esign bundle create --wait with documents by URL', () => {
  it('waits for the download, then shows the launched Bundle', async () => {
    const { CONTRACT_PDF, fileServer } = await import('../helpers.js');
    const server = await fileServer({
      '/slow.pdf': { body: CONTRACT_PDF, delayMs: 400 },
      '/missing.pdf': { status: 404, body: 'gone' },
    });
    try {
      const spec = (path: string) =>
        JSON.stringify({
          packets: [{ name: 'Uma', email: 'uma@example.com' }],
          documents: [{ file_url: server.url(path) }],
        });
      const ok = await esign(['bundle', 'create', '-f', '-', '--wait', '10', '--json'], { input: spec('/slow.pdf') });
      expect(ok.exitCode, ok.stderr).toBe(0);
      expect(JSON.parse(ok.stdout)).toMatchObject({ status: 'se', documents: [{ key: 'doc-1', name: 'slow.pdf' }] });
      const failed = await esign(['bundle', 'create', '-f', '-', '--wait', '10', '--json'], {
        input: spec('/missing.pdf'),
      });
      expect(failed.exitCode).toBe(13);
      expect(JSON.parse(failed.stdout).status).toBe('fa');
      expect(failed.stderr).toMatch(/failed: .*HTTP 404/);
      const noWait = await esign(['bundle', 'create', '-f', '-', '--json'], { input: spec('/slow.pdf') });
      expect(JSON.parse(noWait.stdout).status).toBe('pe');
      const later = JSON.parse((await esign(['bundle', 'get', JSON.parse(noWait.stdout).id, '--json'])).stdout);
      expect(later.status).toBe('se');
    } finally {
      await server.close();
    }
  });

  it('exits 10 when the documents are still processing at the deadline', async () => {
    const { CONTRACT_PDF, fileServer } = await import('../helpers.js');
    const server = await fileServer({ '/slower.pdf': { body: CONTRACT_PDF, delayMs: 2500 } });
    try {
      const r = await esign(['bundle', 'create', '-f', '-', '--wait', '1'], {
        input: JSON.stringify({
          packets: [{ name: 'Vi', email: 'vi@example.com' }],
          documents: [{ file_url: server.url('/slower.pdf') }],
        }),
      });
      expect(r.exitCode).toBe(10);
      expect(r.stderr).toMatch(/still pending after 1 s/);
    } finally {
      await server.close();
    }
  });
});

describe('esign CLI: arguments are checked before anything is sent', () => {
  it('refuses a bad --wait without creating a Bundle', async () => {
    const before = (await esign(['bundle', 'list', '-q', '--all'])).stdout;
    const r = await esign(argv`bundle create --file ${fixture('contract.pdf')} --signer ${'A <a@example.com>'}
      --wait abc`);
    expect(r.exitCode).toBe(2);
    expect((await esign(['bundle', 'list', '-q', '--all'])).stdout).toBe(before);
  });

  it('takes only decimal whole numbers within range', async () => {
    for (const args of [
      ['--limit', '0'],
      ['--limit', '0x10'],
      ['--page', ''],
      ['--per-page', '-1'],
    ]) {
      const r = await esign(['bundle', 'list', ...args]);
      expect(r.exitCode, args.join(' ')).toBe(2);
    }
  });

  it('help on an unknown topic is a usage error', async () => {
    const r = await esign(['help', 'nonsense']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/not a command/);
  });

  it('with --json, usage errors are JSON on stderr too', async () => {
    const r = await esign(['bundle', 'list', '--limit', 'x', '--json']);
    expect(r.exitCode).toBe(2);
    expect(JSON.parse(r.stderr)).toEqual({ code: 'usage', message: expect.stringMatching(/--limit/), exit_code: 2 });
  });

  it('concurrent feature switches all take effect', async () => {
    const names = ['teams', 'signing_brands', 'regex_validation', 'office_upload', 'early_data', 'early_files'];
    await esign(['local', 'features', 'disable', ...names]);
    // Separate processes, each with its own connection to the database.
    const results = await Promise.all(names.map((n) => spawned(['local', 'features', 'enable', n])));
    expect(results.map((r) => r.exitCode)).toEqual(names.map(() => 0));
    const on = JSON.parse((await esign(['local', 'features', '--json'])).stdout)
      .filter((f: { enabled: boolean }) => f.enabled)
      .map((f: { feature: string }) => f.feature);
    for (const n of names) expect(on).toContain(n);
    await esign(['local', 'features', 'disable', ...names]);
  });
});
