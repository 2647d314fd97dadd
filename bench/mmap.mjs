// Whether a memory map helps the lists (issue 26: "set the page cache and memory map from measurements"):
// `node bench/mmap.mjs <data dir>` (one kept by `BENCH_SCALE_KEEP=1 node bench/scale.mjs`) runs eight
// lists of bench/scale.mjs, each right after a write, with mmap_size 0, 256 MB and 4 GB in turn, 15
// rounds, and prints the median CPU time of a round for each size (CPU: other work on the machine adds
// to wall time, not to it). Without a directory under BENCH_SMOKE=1, it seeds a small one itself.
import { rmSync } from 'node:fs';
import { LocalEngine } from '../dist/engine.js';
import { keptScaleDir, SMOKE, size } from './lib.mjs';

if (!process.argv[2] && !SMOKE) throw new Error('usage: node bench/mmap.mjs <data dir kept by bench/scale.mjs>');
const dir = process.argv[2] ?? keptScaleDir(200);
const ROUNDS = size('BENCH_ROUNDS', 15, 1);
const engine = new LocalEngine({ dataDir: dir });
const write = engine.db.prepare(`UPDATE meta SET value = value WHERE key = 'bundles_out_of_order'`);
const day = (f) => new Date(Date.parse('2023-01-01') + f * 3 * 365 * 86400e3).toISOString().slice(0, 10);
// A smoke run's few Bundles have no deep pages.
const deep = (page) => (SMOKE ? 1 : page);
const lists = [
  { ordering: 'created', per_page: 100, page: deep(500) },
  { status: 'se', per_page: 50, page: deep(500) },
  { tag: 'ci', ordering: '-sent', per_page: 100, page: deep(300) },
  { search: 'lease', per_page: 100 },
  { created_after: day(0.5), per_page: 100, page: deep(400) },
  { sent_after: day(0.2), sent_before: day(0.6), per_page: 100, page: deep(300) },
  { ordering: 'completed_at', per_page: 100, page: deep(500) },
  { search: 'RENÉE', per_page: 100, page: deep(100) },
];
const sizes = [0, 256 * 2 ** 20, 4 * 2 ** 30];
const cpu = sizes.map(() => []);
for (let round = 0; round < ROUNDS; round++)
  for (const [i, bytes] of sizes.entries()) {
    engine.db.pragma(`mmap_size = ${bytes}`);
    let ms = 0;
    for (const q of lists) {
      write.run();
      const c0 = process.cpuUsage();
      await engine.listBundles(q);
      const c = process.cpuUsage(c0);
      ms += (c.user + c.system) / 1e3;
    }
    cpu[i].push(ms);
  }
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [i, bytes] of sizes.entries())
  console.log(
    `mmap_size ${bytes}: ${median(cpu[i]).toFixed(1)} ms CPU for ${lists.length} lists right after a write (median of ${ROUNDS})`,
  );
await engine.close();
if (!process.argv[2]) rmSync(dir, { recursive: true, force: true });
