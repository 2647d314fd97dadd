// The smaller rough edges of issue 38, each held on both backends where it has two: verify takes a
// directory and stdin; bundle wait's timeout is said as a duration; a failed Bundle's reason is said
// once; bundle inspect takes a packet id on a remote backend too (its signer's Bundles searched).
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleRequest, fileServer, useTempDir } from '../helpers.js';
import { BOTH_BACKENDS, openedBackend } from './backends.js';
import { esignIn } from './inProcess.js';

const files = useTempDir('esign-smaller-');

describe.each(BOTH_BACKENDS)('on the %s', (name, make) => {
  const b = openedBackend(make);
  const esign = (args: string[], input?: string | Buffer) => esignIn(args, { env: b.env, input });

  /** A completed Bundle's files, downloaded into a directory of their own. */
  async function signedFiles(): Promise<string> {
    const made = await b.engine.createBundle(bundleRequest({ in_order: false }));
    for (const p of made.packets) await b.engine.signPacket(p.id, {});
    await b.engine.settle();
    const dir = join(files.dir, `signed-${name}-${made.id}`);
    const dl = await esign(['bundle', 'files', made.id, '--download', dir]);
    expect(dl.exitCode, dl.stderr).toBe(0);
    return dir;
  }

  it('verify DIR checks each file in the directory, by name; verify - the bytes on stdin', async () => {
    const dir = await signedFiles();
    const names = readdirSync(dir).sort();
    const all = await esign(['verify', dir, '--json']);
    expect(all.exitCode, all.stderr).toBe(0);
    const results = JSON.parse(all.stdout) as { file: string; status: string }[];
    expect(results.map((r) => r.file)).toEqual(names.map((n) => join(dir, n)));
    expect(results.every((r) => r.status === 'match')).toBe(true);

    const signed = readFileSync(join(dir, names.find((n) => n.endsWith('-signed.pdf'))!));
    const stdin = await esign(['verify', '-', '--json'], signed);
    expect(stdin.exitCode, stdin.stderr).toBe(0);
    expect(JSON.parse(stdin.stdout)).toMatchObject([{ file: '-', status: 'match' }]);

    const other = join(files.dir, `other-${name}`);
    mkdirSync(other);
    writeFileSync(join(other, 'notes.txt'), 'not signed');
    const miss = await esign(['verify', other]);
    expect(miss.exitCode).toBe(9);
    const empty = join(files.dir, `empty-${name}`);
    mkdirSync(empty);
    const none = await esign(['verify', empty]);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toBe(`esign: ${empty}: a directory with no files to verify.`);
  });

  it('bundle wait --timeout 1 says the time it waited as a duration', async () => {
    const made = await b.engine.createBundle(bundleRequest());
    const r = await esign(['bundle', 'wait', made.id, '--timeout', '1']);
    expect(r.exitCode).toBe(10);
    expect(r.stderr).toBe(`esign: Timed out after 1 s waiting for complete: ${made.id} is Sent.`);
  });

  it("bundle wait says a failed Bundle's reason once", async () => {
    const server = await fileServer({ '/missing.pdf': { status: 404, body: 'gone' } });
    try {
      const made = await b.engine.createBundle(
        bundleRequest({ documents: [{ key: 'doc-1', file_url: server.url('/missing.pdf') }] }),
      );
      await b.engine.settle();
      expect((await b.engine.getBundle(made.id)).status).toBe('fa');
      const r = await esign(['bundle', 'wait', made.id, '--timeout', '5']);
      expect(r.exitCode).not.toBe(0);
      expect(r.stderr).toContain(`${made.id} cannot reach complete: Failed`);
      expect(r.stderr.match(/HTTP 404/g)).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('bundle inspect <packet-id> shows the Bundle holding that packet', async () => {
    await b.engine.createBundle(bundleRequest({ label: 'Other of Bob' }));
    const made = await b.engine.createBundle(bundleRequest());
    await b.engine.createBundle(bundleRequest({ label: 'Later of Bob' }));
    const bob = made.packets[1];
    const r = await esign(['bundle', 'inspect', bob.id, '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).bundle.id).toBe(made.id);
    const none = await esign(['bundle', 'inspect', 'NoSuchPacketId']);
    expect(none.exitCode).toBe(6);
  });
});
