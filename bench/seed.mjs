// Fills a data directory with N Bundles (one small PDF, two signers each) through the engine.
import { readFileSync } from 'node:fs';
import { LocalEngine } from '../dist/engine.js';

export const PDF_B64 = readFileSync(new URL('../fixtures/contract.pdf', import.meta.url)).toString('base64');

export function request(i) {
  return {
    label: `Agreement ${i}`,
    custom_key: `bench-${i}`,
    packets: [
      { key: 'a', name: `Signer A${i}`, email: `a${i}@example.com` },
      { key: 'b', name: `Signer B${i}`, email: `b${i}@example.com` },
    ],
    documents: [{ key: 'contract', file_b64: PDF_B64 }],
  };
}

export async function seed(dataDir, n) {
  const engine = new LocalEngine({ dataDir });
  const have = (await engine.listBundles({ per_page: 1 })).total;
  for (let i = have; i < n; i++) await engine.createBundle(request(i));
  await engine.close();
}
