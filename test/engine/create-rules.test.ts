// Bundle creation: every validation rule of the spec (bad input → 400 naming the field), feature
// gates, test Bundles, document intake, drafts, signing order and suppressed notifications.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AttachedFile } from '../../src/service/types.js';
import { CONTRACT_PDF, bundleRequest, expectApiError, fixture } from '../helpers.js';
import {
  chars,
  eventKinds,
  outboxOf,
  useEngine,
  withDocument,
  withField,
  withPacket,
  withoutSoffice,
} from './support.js';
import { ONE_PDF, accepted, made, rejected } from './createCases.js';

const ctx = useEngine();

describe('create: rejected requests name the field (400 invalid) and create nothing', () => {
  for (const c of rejected) {
    it(c.name, async () => {
      const { e } = ctx;
      if (c.features) e.account.setFeatures(c.features, true);
      const body = await made(e, c.body);
      await withoutSoffice(c.withoutSoffice, () =>
        expectApiError(e.createBundle(body, c.files), 400, { code: 'invalid', field: c.field }),
      );
      expect((await e.listBundles()).total).toBe(0);
      expect(e.outbox()).toEqual([]);
    });
  }

  it('reports every problem of one request at once', async () => {
    const body = withPacket(1, { key: 'ada', email: 'nope' }, bundleRequest({ email_subject: chars(401) }));
    const err = await expectApiError(ctx.e.createBundle(body), 400, { code: 'invalid' });
    expect(err.errors.map((f) => f.field)).toEqual(expect.arrayContaining(['email_subject', 'packets[1].email']));
  });

  it('says why "sdt" is refused', async () => {
    await expectApiError(ctx.e.createBundle(withField({ kind: 'sdt' })), 400, {
      field: 'documents[0].fields[0].kind',
      message: /no longer/,
    });
  });
});

describe('create: accepted requests', () => {
  for (const c of accepted) {
    it(c.name, async () => {
      const { e } = ctx;
      if (c.features) e.account.setFeatures(c.features, true);
      const b = await e.createBundle(await made(e, c.body), c.files);
      expect(b.status).toBe('se');
      expect((await e.listBundles()).total).toBe(1);
    });
  }

  it('echoes the request members back', async () => {
    const b = await ctx.e.createBundle(
      bundleRequest({
        custom_key: 'crm-1',
        email_subject: 'Sign me',
        cc_emails: ['cc@example.com'],
        payment: { billed_to: 'bob', amount_due: 5 },
      }),
    );
    expect(b).toMatchObject({
      label: 'Test agreement',
      custom_key: 'crm-1',
      email_subject: 'Sign me',
      cc_emails: ['cc@example.com'],
      is_test: false,
      in_order: false,
      payment: { billed_to: 'bob', amount_due: 5, payment_method_types: [] },
      documents: [{ key: 'contract', name: 'contract.pdf' }],
    });
    expect(b.packets.map((p) => [p.name, p.email])).toEqual([
      ['Ada Lovelace', 'ada@example.com'],
      ['Bob Example', 'bob@example.com'],
    ]);
  });

  it('takes requester defaults from the team, then from the account', async () => {
    const { e } = ctx;
    e.account.setFeatures(['teams'], true);
    const team = e.account.addTeam({
      name: 'Sales',
      requester_name: 'Sales desk',
      requester_email: 'sales@example.com',
    });
    const withTeam = await e.createBundle(bundleRequest({ team: team.id }));
    expect(withTeam).toMatchObject({
      team: team.id,
      requester_name: 'Sales desk',
      requester_email: 'sales@example.com',
    });
    const plain = await e.createBundle(bundleRequest());
    expect(plain).toMatchObject({ team: null, requester_email: 'owner@example.com' });
    const own = await e.createBundle(bundleRequest({ team: team.id, requester_email: 'me@example.com' }));
    expect(own.requester_email).toBe('me@example.com');
  });

  it('names a document attached by file_index after the file, unless filename is given', async () => {
    const files: AttachedFile[] = [
      { filename: 'lease.pdf', data: CONTRACT_PDF },
      { filename: 'other.pdf', data: CONTRACT_PDF },
    ];
    const b = await ctx.e.createBundle(
      bundleRequest({
        documents: [
          { key: 'a', file_index: 0 },
          { key: 'b', file_index: 1, filename: 'renamed.pdf' },
        ],
      }),
      files,
    );
    expect(b.documents.map((d) => d.name)).toEqual(['lease.pdf', 'renamed.pdf']);
  });

  it('accepts an office upload with the feature on: pending while LibreOffice converts it (test/engine/intake.test.ts)', async () => {
    ctx.e.account.setFeatures(['office_upload'], true);
    const files = [{ filename: 'contract.docx', data: readFileSync(fixture('contract.docx')) }];
    const b = await ctx.e.createBundle(bundleRequest({ documents: [{ key: 'c', file_index: 0 }] }), files);
    expect([b.status, b.documents]).toEqual(['pe', [{ key: 'c', name: 'contract.pdf' }]]);
  });
});

describe('create: test Bundles go only to verified users', () => {
  const testBundle = (email: string) => bundleRequest({ is_test: true, packets: [{ key: 'u', name: 'User', email }] });

  it('accepts a user once verified, and refuses one whose verification is withdrawn', async () => {
    const { e } = ctx;
    e.account.addUser({ email: 'pat@example.com', verified: false });
    await expectApiError(e.createBundle(testBundle('pat@example.com')), 400, { field: 'packets[0].email' });

    e.account.setUserVerified('pat@example.com', true);
    const b = await e.createBundle(testBundle('pat@example.com'));
    expect(b.is_test).toBe(true);
    expect(b.status).toBe('se');
    expect(outboxOf(e, b.id).map((m) => m.recipient)).toEqual(['pat@example.com']);

    e.account.setUserVerified('owner@example.com', false);
    await expectApiError(e.createBundle(testBundle('owner@example.com')), 400, { field: 'packets[0].email' });
  });

  it('copies (cc_emails) of a test Bundle must go to verified users too', async () => {
    const { e } = ctx;
    const body = (cc: string[]) =>
      bundleRequest({
        is_test: true,
        cc_emails: cc,
        packets: [{ key: 'o', name: 'Owner', email: 'owner@example.com' }],
      });
    await expectApiError(e.createBundle(body(['owner@example.com', 'stranger@example.com'])), 400, {
      field: 'cc_emails[1]',
    });
    expect((await e.createBundle(body(['owner@example.com']))).cc_emails).toEqual(['owner@example.com']);
  });

  it('an embedded signer of any address: created, signs, and is sent nothing (the timeline says so)', async () => {
    const { e } = ctx;
    const b = await e.createBundle(
      bundleRequest({
        is_test: true,
        packets: [{ key: 'v', name: 'Visitor', email: 'visitor@example.org', deliver_via: 'embed' }],
      }),
    );
    expect([b.is_test, b.status]).toEqual([true, 'se']);
    expect((await e.createEmbedUrl(b.packets[0]!.id)).url).toMatch(/^http/);
    await e.signPacket(b.packets[0]!.id, {});
    await e.settle();
    expect((await e.getBundle(b.id)).status).toBe('co');
    // The documents-ready email to the visitor is withheld, and event mw names it.
    expect(outboxOf(e, b.id)).toEqual([]);
    const withheld = (await e.listBundleEvents(b.id)).filter((x) => x.kind === 'mw');
    expect(withheld.map((x) => x.description)).toEqual([
      'Message withheld: docs_ready to visitor@example.org: a test Bundle reaches verified addresses of account users only',
    ]);
  });

  it('email delivery to an unverified address is still refused, saying how to verify a user', async () => {
    const err = await expectApiError(ctx.e.createBundle(testBundle('visitor@example.org')), 400, {
      field: 'packets[0].email',
    });
    expect(err.errors[0]!.message).toContain('esign local users add visitor@example.org');
  });

  it('does not restrict ordinary Bundles to users', async () => {
    const b = await ctx.e.createBundle(bundleRequest({ is_test: false }));
    expect(b.status).toBe('se');
  });
});

describe('create: documents are stored once', () => {
  const blobFiles = (dir: string): string[] =>
    readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? blobFiles(join(dir, n)) : [join(dir, n)]));

  it('two Bundles with the same PDF share one blob file and one blobs row', async () => {
    const { e } = ctx;
    const a = await e.createBundle(bundleRequest({ label: 'first' }));
    const b = await e.createBundle(bundleRequest({ label: 'second' }), ONE_PDF);
    await e.createBundle(bundleRequest({ documents: [{ key: 'x', file_index: 0 }] }), ONE_PDF);
    expect(a.id).not.toBe(b.id);
    const files = blobFiles(join(e.dataDir, 'blobs'));
    expect(files).toHaveLength(1);
    expect(readFileSync(files[0]).equals(CONTRACT_PDF)).toBe(true);
    expect(e.db.prepare('SELECT count(*) AS n FROM blobs').get()).toEqual({ n: 1 });
    expect(e.db.prepare('SELECT count(*) AS n FROM documents').get()).toEqual({ n: 3 });
  });

  it('a different PDF is a second blob', async () => {
    const { e } = ctx;
    await e.createBundle(bundleRequest());
    await e.createBundle(withDocument({ file_b64: readFileSync(fixture('nda.pdf')).toString('base64') }));
    expect(blobFiles(join(e.dataDir, 'blobs'))).toHaveLength(2);
    expect(e.db.prepare('SELECT count(*) AS n FROM blobs').get()).toEqual({ n: 2 });
  });

  it('a rejected request stores no blob', async () => {
    const { e } = ctx;
    await expectApiError(e.createBundle(withPacket(1, { key: 'ada' })), 400);
    expect(e.db.prepare('SELECT count(*) AS n FROM blobs').get()).toEqual({ n: 0 });
  });
});

describe('create: drafts, signing order and notifications', () => {
  it('status "dr" makes a draft: nothing sent, events bc and bd', async () => {
    const { e } = ctx;
    const b = await e.createBundle(bundleRequest({ status: 'dr' }));
    expect(b.status).toBe('dr');
    expect(b.sent).toBeNull();
    expect(b.packets.map((p) => p.status)).toEqual(['ne', 'ne']);
    expect(e.outbox()).toEqual([]);
    expect(await eventKinds(e, b.id)).toEqual(['bc', 'bd']);
  });

  it('is_draft (the 2.2.0 spelling) also makes a draft', async () => {
    const b = await ctx.e.createBundle(bundleRequest({ is_draft: true }));
    expect(b.status).toBe('dr');
    expect(ctx.e.outbox()).toEqual([]);
  });

  it('status "" launches: every signer gets a signing request', async () => {
    const { e } = ctx;
    const b = await e.createBundle(bundleRequest({ status: '', email_subject: 'Please sign' }));
    expect(b.status).toBe('se');
    expect(b.sent).not.toBeNull();
    const msgs = outboxOf(e, b.id);
    expect(msgs.map((m) => [m.kind, m.channel, m.recipient, m.subject])).toEqual([
      ['signing_request', 'email', 'ada@example.com', 'Please sign'],
      ['signing_request', 'email', 'bob@example.com', 'Please sign'],
    ]);
  });

  it('rejects any other status value', async () => {
    await expectApiError(ctx.e.createBundle(bundleRequest({ status: 'se' })), 400, { field: 'status' });
  });

  it('in_order sends only to the first signer and leaves the second packet ne', async () => {
    const { e } = ctx;
    const b = await e.createBundle(bundleRequest({ in_order: true }));
    expect(b.packets.map((p) => p.status)).toEqual(['se', 'ne']);
    expect(outboxOf(e, b.id).map((m) => m.recipient)).toEqual(['ada@example.com']);
    expect(await eventKinds(e, b.id)).toEqual(['bc', 'bl', 'ns']);
  });

  it("in_order follows the packets' order members, not their position", async () => {
    const { e } = ctx;
    const b = await e.createBundle(
      withPacket(0, { order: 2 }, withPacket(1, { order: 1 }, bundleRequest({ in_order: true }))),
    );
    expect(b.packets.map((p) => [p.email, p.status])).toEqual([
      ['ada@example.com', 'ne'],
      ['bob@example.com', 'se'],
    ]);
    expect(outboxOf(e, b.id).map((m) => m.recipient)).toEqual(['bob@example.com']);
  });

  it('delivery by phone records an SMS to the phone', async () => {
    const { e } = ctx;
    const b = await e.createBundle(withPacket(0, { deliver_via: 'phone', phone: '+15550100' }));
    expect(outboxOf(e, b.id).map((m) => [m.channel, m.recipient])).toEqual([
      ['sms', '+15550100'],
      ['email', 'bob@example.com'],
    ]);
  });

  for (const [name, over] of [
    ['suppress_signing', { suppress_signing: true }],
    ['suppress_all', { suppress_all: true }],
    ['deliver_via embed', { deliver_via: 'embed' }],
  ] as const) {
    it(`${name} produces no message for that signer`, async () => {
      const { e } = ctx;
      const b = await e.createBundle(withPacket(0, over));
      expect(b.status).toBe('se');
      expect(outboxOf(e, b.id).map((m) => m.recipient)).toEqual(['bob@example.com']);
      expect(e.outbox({ packet: b.packets[0].id })).toEqual([]);
    });
  }

  it('suppress_reminder and suppress_docs_ready do not stop the signing request', async () => {
    const { e } = ctx;
    const b = await e.createBundle(withPacket(0, { suppress_reminder: true, suppress_docs_ready: true }));
    expect(e.outbox({ packet: b.packets[0].id })).toHaveLength(1);
  });
});
