// A sandbox's fixtures through the port, alike on the engine in-process and on the remote adapter
// talking to a sandbox of a real esign serve (its base URL and key, as `esign sandbox create` gives
// them): a Document Template from a PDF with a Data Flow Tag, an Envelope Template of it, and the
// account set up, then a Bundle made of them whose data reads back the tagged value. On the server's
// own account the remote adapter meets the 403.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalEngine } from '../../src/local/engine.js';
import { RemoteService } from '../../src/remote/remote.js';
import type { EsignService } from '../../src/service/service.js';
import { serveEngine } from '../engineServer.js';
import { expectApiError, fixture, newEngine, tempDir } from '../helpers.js';

const NDA = readFileSync(fixture('nda.pdf')).toString('base64');

interface FixtureBackend {
  service: EsignService;
  /** The port on the hosting server's own account, where fixtures are refused (none in-process). */
  own?: EsignService;
  close(): Promise<void>;
}

const BACKENDS: { name: string; make: () => Promise<FixtureBackend> }[] = [
  {
    name: 'local engine in-process',
    make: async () => {
      const engine = newEngine();
      return { service: engine, close: () => engine.dispose() };
    },
  },
  {
    name: 'remote adapter to a sandbox of esign serve',
    make: async () => {
      const dirs = tempDir('esign-contract-fixtures-');
      const engine = newEngine();
      const served = await serveEngine(engine, {
        sandboxes: {
          dir: join(dirs.dir, 'sandboxes'),
          openEngine: async (dataDir) => new LocalEngine({ dataDir }),
        },
      });
      const made = await fetch(`${served.origin}/sandboxes/`, {
        method: 'POST',
        headers: { authorization: `Token ${served.key}`, 'content-type': 'application/json' },
        body: '{}',
      });
      const sandbox = (await made.json()) as { base_url: string; api_key: string };
      const service = new RemoteService({ baseUrl: sandbox.base_url, apiKey: sandbox.api_key, maxRetries: 0 });
      const own = new RemoteService({ baseUrl: `${served.origin}/api/v2`, apiKey: served.key, maxRetries: 0 });
      return {
        service,
        own,
        close: async () => {
          await service.close();
          await own.close();
          await served.close();
          await engine.dispose();
          dirs.cleanup();
        },
      };
    },
  },
];

describe.each(BACKENDS)('contract fixtures: $name', ({ make }) => {
  it('sets up templates and the account, and a Bundle made of them reads its tagged data back', async () => {
    const b = await make();
    try {
      const s = b.service;
      expect((await s.describeSandbox()).fixtures).toBe(true);
      const account = await s.setupAccount({
        features: { early_data: true },
        users: [{ email: 'qa@example.com', name: 'QA' }],
      });
      expect(account.features).toContain('early_data');
      expect(account.users.map((u) => u.email)).toContain('qa@example.com');
      const template = await s.setupTemplate({
        name: 'NDA',
        roles: [{ key: 'signer', label: 'Signer' }],
        fields: [
          {
            key: 'title',
            kind: 'inp',
            page: 1,
            x: 72,
            y: 560,
            w: 200,
            h: 24,
            editor_roles: ['signer'],
            data_flow_tag: 'job_title',
          },
          { key: 'sig', kind: 'sig', page: 1, x: 72, y: 620, w: 200, h: 36, editor_roles: ['signer'] },
        ],
        file_b64: NDA,
      });
      expect((await s.getTemplate(template.id)).name).toBe('NDA');
      const envelope = await s.setupEnvelopeTemplate({
        name: 'Onboarding',
        signers: [{ key: 'signer' }],
        documents: [{ key: 'nda', template_id: template.id }],
      });
      const bundle = await s.createBundleFromEnvelopeTemplate({
        envelope_template: { template_id: envelope.id },
        packets: [{ key: 'signer', name: 'Ada Lovelace', email: 'qa@example.com' }],
        tag_values: { job_title: 'Engineer' },
        is_test: true,
      });
      await s.signPacket(bundle.packets[0]!.id, {});
      // Early data: the field data is there as soon as the signer signed.
      const data = await s.getBundleData(bundle.id);
      expect(data).toContainEqual(expect.objectContaining({ field_key: 'title', value: 'Engineer' }));
      await expectApiError(s.setupTemplate({ name: 'x', roles: [], file_b64: NDA }), 400, { code: 'invalid' });
      if (b.own)
        await expectApiError(b.own.setupAccount({ features: { teams: true } }), 403, { code: 'permission_denied' });
    } finally {
      await b.close();
    }
  }, 60_000);
});
