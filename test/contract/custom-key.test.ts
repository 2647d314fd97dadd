// custom_key is the spec's "optional unique key": a second Bundle of the account with the same key
// is refused (400 naming custom_key, the existing Bundle's id in the message), whichever create it
// comes through, and nothing of the refused Bundle is stored.
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleRequest, expectApiError, fixture } from '../helpers.js';
import { BACKENDS, useBackend } from './backends.js';

const SPEC_PATH = fixture('templates/envelope-template.json');
const SPEC = JSON.parse(readFileSync(SPEC_PATH, 'utf8')) as Record<string, unknown>;

describe.each(BACKENDS)('custom_key is unique: $name', ({ make }) => {
  const b = useBackend(make);

  it('refuses a second Bundle with the same custom_key, naming the first', async () => {
    const first = await b.service.createBundle(bundleRequest({ custom_key: 'E0001' }));
    const e = await expectApiError(
      b.service.createBundle(bundleRequest({ custom_key: 'E0001', label: 'again' })),
      400,
      { field: 'custom_key' },
    );
    expect(e.message).toContain(first.id);
    expect(e.errors.find((x) => x.field === 'custom_key')?.message).toContain(first.id);
    // Drafts too, and nothing half-made is left behind.
    await expectApiError(b.service.createBundle(bundleRequest({ custom_key: 'E0001', status: 'dr' })), 400, {
      field: 'custom_key',
    });
    const all = await b.service.listBundles({ per_page: 100 });
    expect(all.items.map((x) => x.id)).toEqual([first.id]);
    // Another key, or none, is fine; the key is matched exactly (not as a substring or case-blind).
    await b.service.createBundle(bundleRequest({ custom_key: 'E00011' }));
    await b.service.createBundle(bundleRequest({ custom_key: 'e0001' }));
    await b.service.createBundle(bundleRequest());
    await b.service.createBundle(bundleRequest());
    expect((await b.service.listBundles()).total).toBe(5);
  });

  it('refuses it through the Envelope Template create too', async () => {
    const first = await b.service.createBundle(bundleRequest({ custom_key: 'crm-7' }));
    const et = await b.engine.createEnvelopeTemplate(SPEC, dirname(SPEC_PATH));
    const signers = (SPEC.signers as { key: string }[]).map((s, i) => ({
      key: s.key,
      name: `S ${i}`,
      email: `s${i}@example.com`,
    }));
    const e = await expectApiError(
      b.service.createBundleFromEnvelopeTemplate({
        envelope_template: { template_id: et.id },
        packets: signers,
        custom_key: 'crm-7',
      }),
      400,
      { field: 'custom_key' },
    );
    expect(e.message).toContain(first.id);
    expect((await b.service.listBundles()).total).toBe(1);
  });
});

describe.each(BACKENDS)('findBundleByCustomKey is exact: $name', ({ make }) => {
  const b = useBackend(make);

  it('finds the one Bundle with the key, past a page of near keys, and nothing for a near key', async () => {
    const first = await b.engine.createBundle(bundleRequest({ custom_key: 'K-7', status: 'dr' }));
    // 100 newer Bundles whose key and label hold "K-7": a search for it lists them first, a full page.
    const near: string[] = [];
    for (let n = 0; n < 100; n++)
      near.push(
        (await b.engine.createBundle(bundleRequest({ custom_key: `K-7-${n}`, label: `K-7 ${n}`, status: 'dr' }))).id,
      );
    expect((await b.service.findBundleByCustomKey('K-7'))?.id).toBe(first.id);
    expect((await b.service.findBundleByCustomKey('K-7-42'))?.id).toBe(near[42]);
    for (const miss of ['k-7', 'K-', 'K-7-100', ' K-7'])
      expect(await b.service.findBundleByCustomKey(miss)).toBeUndefined();
  });
});
