// The request schemas of every operation group, including those the engine implements later.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/domain/errors.js';
import * as S from '../../src/domain/schemas.js';

const UUID = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';

function fieldsOf(schema: Parameters<typeof S.parseOr400>[0], body: unknown): string[] {
  try {
    S.parseOr400(schema, body);
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).status).toBe(400);
    return (e as ApiError).errors.map((f) => f.field);
  }
  return [];
}

describe('request schemas', () => {
  it('refuses a body that is not a JSON object', () => {
    for (const body of [null, [], 'text', 3]) expect(() => S.parseOr400(S.TagsRequest, body)).toThrow(/JSON object/);
  });

  it('webhook extra headers: RFC 7230 name and value, 80 and 240 characters', () => {
    const ok = { webhook: UUID, name: 'X-Shared-Secret', value: 'abc 123', order: 2 };
    expect(fieldsOf(S.WebhookHeaderRequest, ok)).toEqual([]);
    expect(fieldsOf(S.WebhookHeaderRequest, { ...ok, name: 'Bad Name' })).toEqual(['name']);
    expect(fieldsOf(S.WebhookHeaderRequest, { ...ok, name: 'X'.repeat(81) })).toEqual(['name']);
    expect(fieldsOf(S.WebhookHeaderRequest, { ...ok, value: 'v'.repeat(241) })).toEqual(['value']);
    expect(fieldsOf(S.WebhookHeaderRequest, { ...ok, value: 'line\nbreak' })).toEqual(['value']);
    expect(fieldsOf(S.WebhookHeaderRequest, { ...ok, value: ' leading' })).toEqual(['value']);
    expect(fieldsOf(S.WebhookHeaderRequest, { ...ok, webhook: 'nope' })).toEqual(['webhook']);
  });

  it('webhooks: name (80), url, event types from the enum', () => {
    const ok = { name: 'ops', url: 'https://hooks.example/esign', event_types: ['bundle_sent', 'packet_declined'] };
    expect(fieldsOf(S.WebhookRequest, ok)).toEqual([]);
    expect(fieldsOf(S.WebhookRequest, { ...ok, event_types: ['bundle_exploded'] })).toEqual(['event_types[0]']);
    expect(fieldsOf(S.WebhookRequest, { ...ok, url: 'ftp://x.example/' })).toEqual(['url']);
    expect(fieldsOf(S.WebhookRequest, { ...ok, name: 'n'.repeat(81) })).toEqual(['name']);
    expect(fieldsOf(S.WebhookRequest, { url: ok.url })).toEqual(['name', 'event_types']);
  });

  it('template metadata: strings of at most 500 characters, or "" to wipe; only metadata is writable', () => {
    expect(fieldsOf(S.TemplatePatchRequest, { metadata: { region: 'emea', old: '' } })).toEqual([]);
    expect(fieldsOf(S.TemplatePatchRequest, { metadata: '' })).toEqual([]);
    expect(fieldsOf(S.TemplatePatchRequest, { metadata: { long: 'x'.repeat(501) } })).toEqual(['metadata.long']);
    expect(fieldsOf(S.TemplatePatchRequest, { metadata: {}, name: 'renamed' })).toEqual(['name']);
  });

  it('preparation sessions need at least one document input', () => {
    expect(fieldsOf(S.BundlePreparationSessionRequest, { upload_pdf: true })).toEqual([]);
    expect(fieldsOf(S.BundlePreparationSessionRequest, { template_ids: [UUID] })).toEqual([]);
    expect(fieldsOf(S.BundlePreparationSessionRequest, { allow_search_signers: true })).toEqual(['upload_pdf']);
  });

  it('verify takes a SHA-256 hex hash', () => {
    expect(fieldsOf(S.VerifyRequest, { hash: 'a'.repeat(64) })).toEqual([]);
    expect(fieldsOf(S.VerifyRequest, { hash: 'a'.repeat(63) })).toEqual(['hash']);
    expect(fieldsOf(S.VerifyRequest, { hash: 'g'.repeat(64) })).toEqual(['hash']);
  });

  it('packet PATCH: deliver_via email or phone only, unknown fields refused', () => {
    expect(fieldsOf(S.PacketPatchRequest, { deliver_via: 'phone', phone: '+15550100' })).toEqual([]);
    expect(fieldsOf(S.PacketPatchRequest, { deliver_via: 'embed' })).toEqual(['deliver_via']);
    expect(fieldsOf(S.PacketPatchRequest, { key: 'x' })).toEqual(['key']);
  });

  it('envelope-template Bundles need the template and packets with keys', () => {
    const ok = {
      envelope_template: { template_id: 'T-1', field_values: [{ key: 'amount', initial_value: 5 }] },
      packets: [{ key: 'client', name: 'C', email: 'c@example.com' }],
    };
    expect(fieldsOf(S.BundleTemplateRequest, ok)).toEqual([]);
    expect(fieldsOf(S.BundleTemplateRequest, { ...ok, packets: [{ name: 'C' }] })).toEqual(['packets[0].key']);
    expect(fieldsOf(S.BundleTemplateRequest, { packets: ok.packets })).toEqual(['envelope_template']);
  });

  it('persons: channels of kind em or mp', () => {
    expect(fieldsOf(S.PersonRequest, { name: 'P', channels: [{ kind: 'em', email: 'p@example.com' }] })).toEqual([]);
    expect(fieldsOf(S.PersonRequest, { name: 'P', channels: [{ kind: 'fax' }] })).toEqual(['channels[0].kind']);
  });

  it('names fields inside template documents of a Bundle', () => {
    const body = { packets: [{ name: 'A', email: 'a@example.com' }], documents: [{ template_id: 'not-a-uuid' }] };
    expect(fieldsOf(S.BundleRequest, body)).toEqual(['documents[0].template_id']);
    const plain = { packets: [{ name: 'A', email: 'a@example.com' }], documents: [{ file_b64: 5 }] };
    expect(fieldsOf(S.BundleRequest, plain)).toEqual(['documents[0].file_b64']);
  });
});
