// The lifecycle as an operator and a CI job run it: create, act as signers, download, verify. Each
// command runs in-process as the binary would (its own Factory and engine on the data directory).
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, argv, useTempDir } from '../helpers.js';
import { esignIn } from './inProcess.js';

const data = useTempDir('esign-cli-lifecycle-');
const esign = (args: string[]) => esignIn(args, { env: { ESIGN_DATA_DIR: join(data.dir, 'db') } });

describe('esign lifecycle from the shell', () => {
  it('signs, downloads the files, and verifies them (exit 0), and a changed file (exit 9)', async () => {
    const spec = join(data.dir, 'spec.json');
    writeFileSync(
      spec,
      JSON.stringify({
        label: 'Shell lifecycle',
        in_order: true,
        packets: [
          { key: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' },
          { key: 'bob', name: 'Bob Example', email: 'bob@example.com' },
        ],
        documents: [
          {
            key: 'contract',
            file_path: fixture('contract.pdf'),
            fields: [
              { key: 'title', kind: 'inp', page: 1, x: 72, y: 580, w: 200, h: 20, editors: ['ada'], required: true },
              { key: 'scan', kind: 'att', page: 1, x: 72, y: 620, w: 200, h: 20, editors: ['bob'] },
            ],
          },
        ],
      }),
    );
    const created = await esign(['bundle', 'create', '-f', spec, '--json']);
    expect(created.exitCode, created.stderr).toBe(0);
    const b = JSON.parse(created.stdout) as { id: string; packets: { id: string }[] };
    const [ada, bob] = b.packets.map((p) => p.id);

    const early = await esign(['local', 'sign', bob!]);
    expect(early.exitCode).toBe(7);
    const missing = await esign(['local', 'sign', ada!]);
    expect(missing.exitCode).toBe(3);
    expect(missing.stderr).toContain('values.title');
    expect((await esign(['local', 'sign', ada!, '--value', 'title=CEO', '-q'])).stdout.trim()).toBe(ada);
    const attach = join(data.dir, 'scan.txt');
    writeFileSync(attach, 'scanned');
    const last = await esign(['local', 'sign', bob!, '--attach', `scan=${attach}`, '--json']);
    expect(last.exitCode, last.stderr).toBe(0);
    expect(JSON.parse(last.stdout).status).toBe('co');

    const dir = join(data.dir, 'files');
    const dl = await esign(['bundle', 'files', b.id, '--download', dir]);
    expect(dl.exitCode, dl.stderr).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(
      [
        `${b.id}-combined.pdf`,
        `coe-${b.id}-Ada-Lovelace.pdf`,
        `coe-${b.id}-Bob-Example.pdf`,
        'contract-signed.pdf',
      ].sort(),
    );
    expect(dl.stderr).toContain(`Saved 4 files in ${dir}.`);

    const ok = await esign(['verify', ...readdirSync(dir).map((f) => join(dir, f)), '--json']);
    expect(ok.exitCode, ok.stderr).toBe(0);
    const results = JSON.parse(ok.stdout) as { status: string; sha256: string; envelope: { bundle_slug: string } }[];
    expect(results.map((r) => r.status)).toEqual(['match', 'match', 'match', 'match']);
    expect(new Set(results.map((r) => r.envelope.bundle_slug))).toEqual(new Set([b.id]));

    const changed = join(data.dir, 'changed.pdf');
    const bytes = readFileSync(join(dir, 'contract-signed.pdf'));
    bytes[100] ^= 1;
    writeFileSync(changed, bytes);
    const bad = await esign(['verify', changed]);
    expect(bad.exitCode).toBe(9);
    expect(bad.stdout).toContain('no_match');
    const byHash = await esign(['verify', '--hash', results[0]!.sha256]);
    expect(byHash.exitCode).toBe(0);
    expect((await esign(['verify', join(data.dir, 'nope.pdf')])).exitCode).toBe(2);

    const coe = join(data.dir, 'coe.pdf');
    const c = await esign(['packet', 'coe', ada!, '--download', coe, '--json']);
    expect(c.exitCode, c.stderr).toBe(0);
    expect(readFileSync(coe).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('expires a Bundle when the clock is moved past its expiry', async () => {
    const created = await esign(argv`bundle create --file ${fixture('contract.pdf')}
      --signer ${'Cy <cy@example.com>'} -q`);
    const slug = created.stdout.trim();
    expect(
      (
        await esign(argv`bundle update ${slug}
          --expires ${new Date(Date.now() + 2 * 86400e3).toISOString().slice(0, 10)}`)
      ).exitCode,
    ).toBe(0);
    const moved = await esign(['local', 'clock', 'advance', '4d', '--json']);
    expect(JSON.parse(moved.stdout).expired).toBeGreaterThanOrEqual(1);
    expect(JSON.parse((await esign(['bundle', 'get', slug, '--json'])).stdout).status).toBe('ex');
  });
});
