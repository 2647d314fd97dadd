// Bulk actions on existing Bundles: several ids or `-` (stdin), one summary, exit 12 when any failed.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, tempDir } from '../helpers.js';
import { esignIn } from './inProcess.js';

let data: ReturnType<typeof tempDir>;
let env: Record<string, string>;
const esign = (args: string[], o: Parameters<typeof esignIn>[1] = {}) => esignIn(args, { env, ...o });
const ids: string[] = [];

beforeAll(async () => {
  data = tempDir('esign-bulk-');
  env = { ESIGN_DATA_DIR: join(data.dir, 'engine') };
  for (const who of ['Ada <ada@example.com>', 'Bob <bob@example.com>', 'Cy <cy@example.com>']) {
    const r = await esign(['bundle', 'create', '--file', fixture('contract.pdf'), '--signer', who, '--wait', '-q']);
    expect(r.exitCode, r.stderr).toBe(0);
    ids.push(r.stdout.trim());
  }
});
afterAll(() => data.cleanup());

describe('bulk bundle verbs', () => {
  it('bundle remind reminds whose turn it is, and exits 12 naming the id that failed', async () => {
    const r = await esign(['bundle', 'remind', ids[0], 'NoSuchBundle', ids[1]]);
    expect(r.exitCode).toBe(12);
    const rows = r.stdout.split('\n').map((l) => l.split('\t'));
    expect(rows).toEqual([
      [ids[0], 'ok', 'reminded Ada'],
      ['NoSuchBundle', 'failed', expect.stringMatching(/not found|No Bundle/i)],
      [ids[1], 'ok', 'reminded Bob'],
    ]);
    expect(r.stderr).toMatch(/2 of 3 done, 1 failed/);
    expect(r.stderr).toMatch(/1 of 3 failed: NoSuchBundle/);
    // Once an hour: a second reminder at once is refused by the engine, and reported per id.
    const again = await esign(['bundle', 'remind', ids[0], ids[1]]);
    expect(again.exitCode).toBe(12);
    expect(again.stdout).toMatch(/failed\t.*once per hour/);
  });

  it('tags add takes ID,ID and cancel takes ids from stdin with one summary', async () => {
    const t = await esign(['bundle', 'tags', 'add', `${ids[1]},${ids[2]}`, 'q3']);
    expect(t.exitCode, t.stderr).toBe(0);
    expect(t.stdout.split('\n').map((l) => l.split('\t')[1])).toEqual(['ok', 'ok']);
    const c = await esign(['bundle', 'cancel', '-', '--yes'], { input: `${ids[2]}\nnope\n` });
    expect(c.exitCode).toBe(12);
    expect(JSON.parse((await esign(['bundle', 'get', ids[2], '--json'])).stdout).status).toBe('ca');
    // One id keeps the verb's own output and exit code.
    const one = await esign(['bundle', 'cancel', 'nope', '--yes']);
    expect(one.exitCode).toBe(6);
  });
});
