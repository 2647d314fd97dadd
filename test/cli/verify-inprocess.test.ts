// The verb shape: `esign verify` run in-process with a captured IO and a real engine on a temp dir.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../helpers.js';
import { esignIn } from './inProcess.js';

const data = useTempDir('esign-verify-');

describe('esign verify (in-process)', () => {
  it('exits 9 for a file that matches no completed Bundle, with one row per input', async () => {
    const file = join(data.dir, 'other.pdf');
    writeFileSync(file, 'not a signed document');
    const r = await esignIn(['verify', file, '--hash', 'a'.repeat(64)], {
      env: { ESIGN_DATA_DIR: join(data.dir, 'data') },
    });
    expect(r.exitCode).toBe(9);
    const rows = r.stdout.split('\n').map((l) => l.split('\t'));
    expect(rows.map((c) => c[0])).toEqual(['hash', file]);
    expect(rows.every((c) => c[1] === 'no_match')).toBe(true);
    expect(r.stderr).toBe('esign: 2 of 2 did not match a completed Bundle.');
  });

  it('is a usage error (2) with nothing to check', async () => {
    const r = await esignIn(['verify'], { env: { ESIGN_DATA_DIR: join(data.dir, 'data') } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/Give one or more files/);
  });
});
