// envelope_template routing, one rule (domain/createRouting.ts) for esign serve's POST /bundles/
// and the engine's createBundle: the same body gets the same answer whichever way it arrives.
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isEnvelopeTemplateRequest } from '../../src/domain/createRouting.js';
import { CONTRACT_B64, expectApiError, fixture } from '../helpers.js';
import { BACKENDS, useBackend } from './backends.js';

const SPEC_PATH = fixture('templates/envelope-template.json');
const SPEC = JSON.parse(readFileSync(SPEC_PATH, 'utf8')) as Record<string, unknown>;
const CLIENT = { key: 'client', name: 'Cleo Client', email: 'cleo@example.com', phone: '+15551234567' };

describe('isEnvelopeTemplateRequest', () => {
  it('is envelope_template with no documents, absent or empty', () => {
    expect(isEnvelopeTemplateRequest({ envelope_template: { template_id: 'x' } })).toBe(true);
    expect(isEnvelopeTemplateRequest({ envelope_template: { template_id: 'x' }, documents: [] })).toBe(true);
    expect(isEnvelopeTemplateRequest({ envelope_template: { template_id: 'x' }, documents: [{}] })).toBe(false);
    expect(isEnvelopeTemplateRequest({ documents: [] })).toBe(false);
    expect(isEnvelopeTemplateRequest(null)).toBe(false);
  });
});

describe.each(BACKENDS)('envelope_template routing: $name', ({ make }) => {
  const b = useBackend(make);

  it('reads a packet without a key the same with documents absent or empty, through either create', async () => {
    const et = await b.engine.createEnvelopeTemplate(SPEC, dirname(SPEC_PATH));
    const body = {
      envelope_template: { template_id: et.id },
      packets: [CLIENT, { name: 'Pat', email: 'pat@example.com' }],
    };
    const answers = [
      await expectApiError(b.service.createBundle(body), 400),
      await expectApiError(b.service.createBundle({ ...body, documents: [] }), 400),
      await expectApiError(b.service.createBundleFromEnvelopeTemplate(body), 400),
      await expectApiError(b.service.createBundleFromEnvelopeTemplate({ ...body, documents: [] }), 400),
    ].map((e) => e.errors);
    expect(answers[0]!.map((x) => x.field)).toContain('packets[1].key');
    for (const a of answers.slice(1)) expect(a).toEqual(answers[0]);
    expect((await b.service.listBundles()).total).toBe(0);
  });

  it('refuses documents beside envelope_template on POST /bundles/', async () => {
    const et = await b.engine.createEnvelopeTemplate(SPEC, dirname(SPEC_PATH));
    await expectApiError(
      b.service.createBundle({
        envelope_template: { template_id: et.id },
        packets: [CLIENT],
        documents: [{ key: 'c', file_b64: CONTRACT_B64 }],
      }),
      400,
      { field: 'envelope_template', message: /not both/ },
    );
  });
});

describe.each(BACKENDS)('tags and sign bodies, one schema each: $name', ({ make }) => {
  const b = useBackend(make);

  it("a tags member that is not a list is the TagsRequest schema's 400, on the engine and through esign serve", async () => {
    const created = await b.service.createBundle({
      label: 'T',
      packets: [CLIENT],
      documents: [{ key: 'c', file_b64: CONTRACT_B64 }],
    });
    const direct = await expectApiError(b.engine.addBundleTags(created.id, 'vip' as never), 400, { field: 'tags' });
    const served = await expectApiError(b.service.addBundleTags(created.id, 'vip' as never), 400, { field: 'tags' });
    expect(served.errors).toEqual(direct.errors);
    await expectApiError(b.service.removeBundleTags(created.id, ['ok', ''] as never), 400, { field: 'tags[1]' });
  });
});
