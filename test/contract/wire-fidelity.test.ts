// What published API v2 clients send, on every backend (issue 11): members applied, not dropped;
// DRF-style numbers and booleans; the wire's event types and packet states; reassignment.
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTRACT_B64, bundleRequest, expectApiError, fixture, hookRequest } from '../helpers.js';
import { BACKENDS, useBackend } from './backends.js';

const DAY = 86400e3;
const URL_A = 'http://127.0.0.1:1/a';
const SPEC_PATH = fixture('templates/envelope-template.json');
const SPEC = JSON.parse(readFileSync(SPEC_PATH, 'utf8')) as Record<string, unknown>;

describe.each(BACKENDS)('contract wire fidelity: $name', ({ make }) => {
  const b = useBackend(make);

  it('applies PATCH members sent at creation, with the same gates and errors as PATCH (item 1)', async () => {
    const expires = new Date(b.engine.clock.nowMs() + 10 * DAY).toISOString();
    const settings = {
      expires,
      send_reminders: true,
      reminder_offset: 2,
      reminder_interval: 4,
      reminder_expires: 20,
      cc_sender: true,
    };
    // Reminders are a feature: the same 400 as PATCH, naming each field, and nothing is created.
    b.engine.account.setFeatures(['reminders'], false);
    const e = await expectApiError(b.service.createBundle(bundleRequest({ ...settings, send_reminders: false })), 400, {
      code: 'invalid',
    });
    expect(e.errors.map((x) => x.field).sort()).toEqual([
      'reminder_expires',
      'reminder_interval',
      'reminder_offset',
      'send_reminders',
    ]);
    expect((await b.service.listBundles()).total).toBe(0);

    b.engine.account.setFeatures(['reminders'], true);
    const brand = b.engine.account.addBrand({ name: 'Acme' });
    const created = await b.service.createBundle(bundleRequest({ ...settings, signing_brand: brand.id }));
    expect(created).toMatchObject({ ...settings, signing_brand: brand.id });
    expect(await b.service.getBundle(created.id)).toEqual(created);

    await expectApiError(b.service.createBundle(bundleRequest({ expires: '2001-01-01' })), 400, {
      field: 'expires',
      message: /future/,
    });
    await expectApiError(
      b.service.createBundle(bundleRequest({ signing_brand: '00000000-0000-4000-8000-000000000000' })),
      400,
      { field: 'signing_brand' },
    );
    await expectApiError(b.service.createBundle(bundleRequest({ reminder_offset: 31 })), 400, {
      field: 'reminder_offset',
    });
  });

  it('accepts envelope_template with an empty documents array (item 2)', async () => {
    const et = await b.engine.createEnvelopeTemplate(SPEC, dirname(SPEC_PATH));
    const packets = [
      { key: 'client', name: 'Cleo Client', email: 'cleo@example.com', phone: '+15551234567' },
      { key: 'provider', name: 'Pat Provider', email: 'pat@example.com' },
    ];
    const created = await b.service.createBundle({ envelope_template: { template_id: et.id }, documents: [], packets });
    expect(created).toMatchObject({ status: 'se', documents: [{ key: 'agreement' }] });
    // Without envelope_template an empty list still needs a document.
    await expectApiError(b.service.createBundle(bundleRequest({ documents: [] })), 400, {
      field: 'documents',
      message: /At least one document/,
    });
  });

  it('reads numbers and booleans sent as strings, and still refuses what is not one (item 3)', async () => {
    const created = await b.service.createBundle(
      bundleRequest({
        in_order: 'true',
        is_test: 'false',
        packets: [
          { key: 'ada', name: 'Ada', email: 'ada@example.com', order: '0', auth_selfie: 'True' },
          { key: 'bob', name: 'Bob', email: 'bob@example.com', order: '1', suppress_reminder: 'false' },
        ],
      }),
    );
    expect(created.in_order).toBe(true);
    expect(created.is_test).toBe(false);
    expect(created.packets.map((p) => [p.order, p.auth_selfie, p.status])).toEqual([
      [0, true, 'se'],
      [1, false, 'ne'],
    ]);
    b.engine.account.setFeatures(['reminders'], true);
    expect(await b.service.updateBundle(created.id, { reminder_offset: '5', send_reminders: 'false' })).toMatchObject({
      reminder_offset: 5,
      send_reminders: false,
    });

    await expectApiError(b.service.createBundle(bundleRequest({ in_order: 'sometimes' })), 400, { field: 'in_order' });
    await expectApiError(
      b.service.createBundle(bundleRequest({ packets: [{ name: 'A', email: 'a@example.com', order: 'first' }] })),
      400,
      { field: 'packets[0].order' },
    );
    await expectApiError(
      b.service.createBundle(bundleRequest({ packets: [{ name: 'A', email: 'a@example.com', order: '1.5' }] })),
      400,
      { field: 'packets[0].order' },
    );
    const w = await b.service.createWebhook({ name: 'h', url: URL_A, event_types: ['bundle_sent'], enabled: 'false' });
    expect(w.enabled).toBe(false);
  });

  it('accepts the event types seen on the wire, and sends the template events (item 4)', async () => {
    const types = ['bundle_signer_reassigned', 'doc_template_created', 'doc_template_updated', 'doc_template_deleted'];
    const w = await b.service.createWebhook({ name: 'h', url: URL_A, event_types: types });
    expect(w.event_types).toEqual(types);
    expect((await b.service.listWebhooks({ event_type: 'doc_template_created' })).items.map((x) => x.id)).toEqual([
      w.id,
    ]);

    const t = await b.engine.importTemplate({
      name: 'NDA',
      pdf: readFileSync(fixture('nda.pdf')),
      roles: [{ key: 'a' }],
    });
    await b.service.updateTemplate(t.id, { metadata: { region: 'emea' } });
    await b.service.deleteTemplate(t.id);
    const events = (await b.service.listWebhookEvents({ webhook: w.id })).items;
    expect(events.map((e) => e.event_type).sort()).toEqual([
      'doc_template_created',
      'doc_template_deleted',
      'doc_template_updated',
    ]);
    for (const e of events) expect(JSON.parse(e.payload).payload).toEqual({ template_id: t.id });
  });

  it('creates extra_headers given with a webhook, by the header rules (item 6)', async () => {
    const w = await b.service.createWebhook({
      name: 'h',
      url: URL_A,
      event_types: ['bundle_sent'],
      extra_headers: [
        { name: 'Authorization', value: 'Bearer abc', order: '2' },
        { name: 'X-Tenant', value: 't1' },
      ],
    });
    expect(w.extra_headers.map((h) => [h.name, h.value, h.order, h.webhook])).toEqual([
      ['X-Tenant', 't1', 1, w.id],
      ['Authorization', 'Bearer abc', 2, w.id],
    ]);
    expect((await b.service.listWebhookHeaders({ webhook: w.id })).total).toBe(2);
    await expectApiError(
      b.service.createWebhook(hookRequest({ name: 'h', extra_headers: [{ name: 'Host', value: 'x' }] })),
      400,
      { field: 'extra_headers[0].name' },
    );
    await expectApiError(
      b.service.createWebhook(hookRequest({ name: 'h', extra_headers: [{ name: 'X-A', value: ' lead' }] })),
      400,
      { field: 'extra_headers[0].value' },
    );
    // Read back and sent again unchanged: fine. A different list is refused, not dropped.
    expect((await b.service.replaceWebhook(w.id, { ...w, name: 'renamed' })).name).toBe('renamed');
    await expectApiError(b.service.updateWebhook(w.id, { extra_headers: [] }), 400, { field: 'extra_headers' });
  });

  it('takes long labels, names, keys and tags that the spec does not limit (item 7)', async () => {
    const long = (n: number, c = 'x') => c.repeat(n);
    const created = await b.service.createBundle({
      label: long(1000),
      requester_name: long(500),
      packets: [{ key: long(300, 'k'), name: long(400, 'n'), email: 'ada@example.com' }],
      documents: [
        {
          key: long(300, 'd'),
          file_b64: CONTRACT_B64,
          fields: [{ key: long(300, 'f'), kind: 'inp', page: 1, editors: [long(300, 'k')] }],
        },
      ],
    });
    expect(created.label).toHaveLength(1000);
    expect(created.packets[0]!.name).toHaveLength(400);
    expect((await b.service.addBundleTags(created.id, [long(300, 't')])).tags).toEqual([long(300, 't')]);
    expect((await b.service.createPerson({ name: long(300, 'p') })).name).toHaveLength(300);
    // The stated limits hold, and the protective bound is far above real use.
    await expectApiError(b.service.createBundle(bundleRequest({ custom_key: long(201) })), 400, {
      field: 'custom_key',
    });
    await expectApiError(b.service.createBundle(bundleRequest({ label: long(10_001) })), 400, { field: 'label' });
  });

  it('refuses test Bundles that would deliver to unverified addresses (item 8; embedded signers: issue 45)', async () => {
    const owner = 'owner@example.com';
    const test = (over: Record<string, unknown>) =>
      bundleRequest({
        is_test: true,
        requester_email: owner,
        packets: [{ key: 'o', name: 'Owner', email: owner }],
        ...over,
      });
    await b.service.createBundle(test({}));
    const two = (deliver_via: string) =>
      test({
        packets: [
          { key: 'o', name: 'Owner', email: owner },
          { name: 'E', email: 'stranger@example.com', deliver_via },
        ],
      });
    await expectApiError(b.service.createBundle(two('email')), 400, { field: 'packets[1].email' });
    // Delivery is limited, not creation (issue 45): an embedded signer is delivered nothing.
    expect((await b.service.createBundle(two('embed'))).packets[1]).toMatchObject({ email: 'stranger@example.com' });
    await expectApiError(
      b.service.createBundle(test({ cc_sender: true, requester_email: 'someone@example.com' })),
      400,
      { field: 'cc_sender' },
    );
    const ok = await b.service.createBundle(test({ cc_sender: true }));
    expect(ok.cc_sender).toBe(true);
    const other = await b.service.createBundle(test({ status: 'dr', requester_email: 'someone@example.com' }));
    await expectApiError(b.service.updateBundle(other.id, { cc_sender: true }), 400, { field: 'cc_sender' });
  });

  it('keeps packet states in the wire enum: a declining signer ends ca, the Bundle de (item 10)', async () => {
    const created = await b.service.createBundle(bundleRequest());
    await b.service.declinePacket(created.packets[0]!.id, 'no');
    const got = await b.service.getBundle(created.id);
    expect(got.status).toBe('de');
    expect(got.packets.map((p) => p.status)).toEqual(['ca', 'se']);
    await expectApiError(b.service.remindPacket(created.packets[0]!.id), 409, { message: /declined/ });
    const wire = ['ne', 're', 'se', 'st', 'ca', 'ex', 'co', 'fa', 'ra'];
    for (const p of got.packets) expect(wire).toContain(p.status);
  });

  it('reassigns a signer when the Bundle allows it: old packet ra, new request, event, chain only when allowed (item 5)', async () => {
    const w = await b.service.createWebhook({ name: 'h', url: URL_A, event_types: ['bundle_signer_reassigned'] });
    const refused = await b.service.createBundle(bundleRequest());
    await expectApiError(
      b.service.reassignPacket(refused.packets[0]!.id, { name: 'Cy', email: 'cy@example.com' }),
      403,
      { message: /allow_signer_reassign/ },
    );

    const created = await b.service.createBundle(bundleRequest({ in_order: true, allow_signer_reassign: 'true' }));
    expect(created).toMatchObject({ allow_signer_reassign: true, allow_chained_signer_reassign: false });
    const ada = created.packets[0]!;
    await expectApiError(b.service.reassignPacket(ada.id, { name: 'Cy' }), 400, { field: 'email' });
    await expectApiError(
      b.service.reassignPacket(created.packets[1]!.id, { name: 'Cy', email: 'cy@example.com' }),
      409,
      { message: /turn/ },
    );
    const cy = await b.service.reassignPacket(ada.id, {
      name: 'Cy Newman',
      email: 'cy@example.com',
      reason: 'on leave',
    });
    expect(cy).toMatchObject({ name: 'Cy Newman', email: 'cy@example.com', status: 'se', order: ada.order });
    const after = await b.service.getBundle(created.id);
    expect(after.packets.map((p) => [p.name, p.status])).toEqual([
      ['Ada Lovelace', 'ra'],
      ['Bob Example', 'ne'],
      ['Cy Newman', 'se'],
    ]);
    const events = await b.service.listBundleEvents(created.id);
    expect(events.filter((e) => e.kind === 'pa').map((e) => [e.packet_id, e.description])).toEqual([
      [ada.id, 'Signer reassigned: to Cy Newman <cy@example.com> (on leave)'],
    ]);
    expect(events.at(-1)).toMatchObject({ kind: 'ns', packet_id: cy.id });
    const hooks = (await b.service.listWebhookEvents({ webhook: w.id })).items;
    expect(hooks.map((e) => [e.event_type, JSON.parse(e.payload).payload])).toEqual([
      ['bundle_signer_reassigned', { bundle_id: created.id, packet_id: ada.id }],
    ]);
    await expectApiError(b.service.signPacket(ada.id, {}), 409, { message: /another signer/ });

    // Chained: refused until the Bundle allows it.
    await expectApiError(b.service.reassignPacket(cy.id, { name: 'Di', email: 'di@example.com' }), 403, {
      message: /allow_chained_signer_reassign/,
    });
    await b.service.updateBundle(created.id, { allow_chained_signer_reassign: true });
    const di = await b.service.reassignPacket(cy.id, { name: 'Di', email: 'di@example.com' });
    // The new signer signs the fields of the key they took over; the Bundle completes without the ra packets.
    await b.service.signPacket(di.id, {});
    const bob = after.packets[1]!;
    expect((await b.service.getPacket(bob.id)).status).toBe('se');
    await b.service.signPacket(bob.id, {});
    expect((await b.service.getBundle(created.id)).status).toBe('co');
  });
});
