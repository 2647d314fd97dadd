// Bundle search finds a signer's phone as people type it (issue 45): whichever way the number was
// written when sent and however it is typed in the search, on the engine and over the wire as
// `search=`; a search that only looks like digits (a date in a label) still matches as written.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalEngine } from '../../src/local/engine.js';
import { phoneAlternative } from '../../src/local/bundles/search.js';
import { buildServer } from '../../src/server/app.js';
import { bundleRequest, newEngine } from '../helpers.js';

let engine: LocalEngine & { dispose: () => Promise<void> };
let app: FastifyInstance;
let origin: string;
let key: string;
const ids: Record<string, string> = {};

const signer = (name: string, phone: string) => ({ key: 's', name, email: `${name.toLowerCase()}@example.com`, phone });

beforeAll(async () => {
  engine = newEngine();
  key = engine.keys.create('search').key;
  // More than a batch of the index's queue (64): some rows are in the index, the last ones still queued.
  for (let i = 0; i < 70; i++) await engine.createBundle(bundleRequest({ label: `filler ${i}` }));
  ids.spaces = (
    await engine.createBundle(bundleRequest({ label: 'NDA 2026-11-02', packets: [signer('Ada', '505 555 5555')] }))
  ).id;
  ids.e164 = (await engine.createBundle(bundleRequest({ packets: [signer('Bob', '+15055550123')] }))).id;
  ids.uk = (await engine.createBundle(bundleRequest({ packets: [signer('Cy', '+44 20 7946 0958')] }))).id;
  app = await buildServer({ service: engine, authenticate: (k) => engine.keys.authenticate(k) });
  origin = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await app?.close();
  await engine?.dispose();
});

const onEngine = async (search: string) =>
  (await engine.listBundles({ search, per_page: 100 })).items.map((b) => b.id).sort();
const onWire = async (search: string) => {
  const r = await fetch(`${origin}/api/v2/bundles/?per_page=100&search=${encodeURIComponent(search)}`, {
    headers: { authorization: `Token ${key}` },
  });
  expect(r.status).toBe(200);
  return ((await r.json()) as { id: string }[]).map((b) => b.id).sort();
};

describe('search by phone', () => {
  const cases: [string, string[]][] = [
    ['(505) 555-5555', ['spaces']],
    ['+1 505-555-5555', ['spaces']],
    ['5055555555', ['spaces']],
    ['505.555.5555', ['spaces']],
    ['505 555 0123', ['e164']],
    ['(505) 555-0123', ['e164']],
    ['+15055550123', ['e164']],
    ['555-0123', ['e164']],
    ['+442079460958', ['uk']],
    ['+44 20 7946 0958', ['uk']],
    ['2026-11-02', ['spaces']],
  ];
  for (const [typed, want] of cases)
    it(`"${typed}" finds ${want.join(', ')}, on the engine and over the wire`, async () => {
      const expected = want.map((w) => ids[w]!).sort();
      expect(await onEngine(typed)).toEqual(expected);
      expect(await onWire(typed)).toEqual(expected);
    });

  it('reads as a phone only text of digits and what is typed between them, seven digits or more', () => {
    expect(phoneAlternative('(505) 555-5555')).toBe('5055555555');
    expect(phoneAlternative('555 012')).toBeUndefined();
    expect(phoneAlternative('Ada 5055555555')).toBeUndefined();
    expect(phoneAlternative('5055555555')).toBeUndefined();
  });
});
