// esign verify on a 512 MB file as a ratio to `openssl dgst -sha256` on the same file, same run
// (interleaved, so both see the same page cache), with Node's own start (`node -e 0`) taken off
// esign's time: (verify - node -e 0) / openssl. The file matches no Bundle: esign exits 9.
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmt, size, timeCommands } from './lib.mjs';

const MB = size('BENCH_VERIFY_MB', 512, 1);
const dir = mkdtempSync(join(tmpdir(), 'esign-bench-verify-'));
try {
  const file = join(dir, 'big.bin');
  const fd = openSync(file, 'w');
  const block = randomBytes(1 << 20);
  for (let i = 0; i < MB; i++) writeSync(fd, block);
  closeSync(fd);
  const bin = new URL('../bin/esign.js', import.meta.url).pathname;
  const env = { ...process.env, ESIGN_DATA_DIR: join(dir, 'data') };
  const times = timeCommands(
    [
      ['node', ['-e', '0']],
      ['openssl', ['dgst', '-sha256', file]],
      ['node', [bin, 'verify', file, '--json']],
    ],
    { runs: size('BENCH_RUNS', 5, 1), env, okStatus: [0, 9] },
  );
  const [node, openssl, esign] = times;
  const [nodeCpu, opensslCpu, esignCpu] = times.cpu;
  console.log(`node -e 0                            ${fmt(node)} ms  CPU ${fmt(nodeCpu, 0)} ms`);
  console.log(`openssl dgst -sha256 (${MB} MB)          ${fmt(openssl)} ms  CPU ${fmt(opensslCpu, 0)} ms`);
  console.log(
    `esign verify (${MB} MB)                  ${fmt(esign)} ms  (verify - node -e 0) / openssl ${fmt((esign - node) / openssl, 2)} (target <= 1.05); CPU ${fmt(esignCpu, 0)} ms, ratio ${fmt((esignCpu - nodeCpu) / opensslCpu, 2)}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
