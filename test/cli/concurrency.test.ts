// Many CLI processes creating Bundles on one database at once: nothing lost, no lock errors.
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { LocalEngine } from '../../src/local/engine.js';
import { fixture, tempDir } from '../helpers.js';

const BIN = new URL('../../bin/esign.js', import.meta.url).pathname;

describe('concurrent CLI processes', () => {
  it('lose nothing and hit no lock error, starting from an empty data directory', async () => {
    const data = tempDir('esign-conc-');
    try {
      const processes = 16;
      const rounds = 2;
      const results = [];
      for (let round = 0; round < rounds; round++) {
        results.push(
          ...(await Promise.all(
            Array.from({ length: processes }, (_, i) =>
              execa(
                'node',
                [
                  BIN,
                  'bundle',
                  'create',
                  '--file',
                  fixture('contract.pdf'),
                  '--signer',
                  `S${i} <s${i}@example.com>`,
                  '--label',
                  `r${round}-p${i}`,
                  '-q',
                ],
                {
                  reject: false,
                  env: { ESIGN_DATA_DIR: data.dir },
                },
              ),
            ),
          )),
        );
      }
      for (const r of results) {
        expect(r.stderr).not.toMatch(/locked|busy/i);
        expect(r.exitCode, r.stderr).toBe(0);
      }
      const slugs = results.map((r) => r.stdout.trim());
      expect(new Set(slugs).size).toBe(processes * rounds);
      const engine = new LocalEngine({ dataDir: data.dir });
      const page = await engine.listBundles({ per_page: 100 });
      await engine.close();
      expect(page.total).toBe(processes * rounds);
      expect(new Set(page.items.map((b) => b.label)).size).toBe(processes * rounds);
      expect(page.items.every((b) => b.status === 'se')).toBe(true);
    } finally {
      data.cleanup();
    }
    // 32 processes on a 2-core machine took 18-19 s of CI's 30 s default: room for a second run beside it.
  }, 90_000);
});
