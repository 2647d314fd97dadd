// Every string a Bundle's story carries is hostile here (a remote server may send anything): the
// console's pages render it as text, never as markup, and never as a link to another scheme.
import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { describe, expect, it } from 'vitest';
import type { Inspection } from '../../src/app/inspection.js';
import type { Bundle, BundleDataItem } from '../../src/service/types.js';
import { BundlePage } from '../../src/server/console/bundle.js';
import { FindPage, findQuery } from '../../src/server/console/find.js';
import { VerifyAnswer, WebhooksPage } from '../../src/server/console/pages.js';

const X = (where: string) => `<script>alert("${where}")</script><img src=x onerror=alert(1)>"'&`;
const NOW = Date.parse('2026-11-25T12:00:00Z');

const bundle = {
  id: X('slug'),
  created: '2026-11-25T10:00:00Z',
  status: 'st',
  label: X('label'),
  custom_key: X('custom_key'),
  requester_name: X('requester'),
  requester_email: X('requester email'),
  is_test: false,
  doc_status: 'no',
  errors: [{ field: 'x', message: X('error') }],
  tags: [X('tag')],
  sent: null,
  completed_at: null,
  expires: null,
  documents: [{ key: X('doc key'), name: X('document name') }],
  packets: [
    {
      id: X('packet'),
      name: X('signer'),
      email: X('email'),
      phone: null,
      deliver_via: 'email',
      status: 'se',
      order: 0,
      completed_at: null,
      last_accessed_at: null,
    },
  ],
} as unknown as Bundle;

const hookEvent = {
  pk: X('event'),
  webhook: X('webhook'),
  event_type: X('event type'),
  created: '2026-11-25T10:00:00Z',
  status: 500,
  success: false,
  payload: JSON.stringify({ payload: { bundle_id: X('slug') } }),
  next_attempt_at: null,
  deliveries: [{ pk: 'd1', timestamp: '2026-11-25T10:00:01Z', status: 500, message: X('webhook reason') }],
};

const inspection: Inspection = {
  bundle,
  signers: [
    {
      id: X('packet'),
      name: X('signer'),
      address: X('address'),
      deliver_via: 'email',
      status: 'se',
      last_viewed: null,
      completed_at: null,
      state: 'Sent',
      order: 1,
      waits_for: [{ name: X('waited for'), last_viewed: null }],
      reminders: {
        sent: 1,
        last_at: '2026-11-25T10:00:00Z',
        by_hand_at: null,
        why_not: X('why not'),
        automatic_at: null,
        automatic: X('automatic'),
      },
    },
  ],
  timeline: [
    {
      at: '2026-11-25T10:00:00Z',
      source: 'event',
      code: X('code'),
      signer: X('timeline signer'),
      what: X('what'),
      head: X('head'),
      facts: [{ label: X('fact label'), value: X('fact value') }],
    },
  ],
  files: [
    {
      file_url: 'javascript:alert(1)',
      expires: '',
      kind: 'signed_pdf',
      name: X('file name'),
      sha256: X('sha'),
      size: 10,
    },
  ],
  files_note: null,
  serving_url: null,
  console_url: null,
  links_note: null,
  unavailable: [X('unavailable')],
  messages: [
    {
      id: 1,
      created: '2026-11-25T10:00:00Z',
      channel: 'email',
      kind: X('kind'),
      recipient: X('recipient'),
      subject: X('subject'),
      body: X('body'),
      bundle_id: X('slug'),
      packet_id: null,
    },
  ],
  webhook_events: [hookEvent],
  webhook_events_total: 1,
  webhooks: [
    {
      id: 'w1',
      name: X('webhook name'),
      url: 'https://example.com/hook',
      enabled: false,
      disabled_at: '2026-11-25T09:00:00Z',
      disabled_after_failures: 10,
      occurrences: 2,
      delivered: 0,
      not_delivered: 1,
      not_sent: 1,
      missed: 1,
      missed_dropped: 0,
      outcome: X('outcome'),
    },
  ],
};

const data: BundleDataItem[] = [
  {
    doc_key: X('data doc'),
    field_key: X('field key'),
    label: X('field label'),
    kind: 'inp',
    value: X('field value'),
    filled_by: X('filled by'),
    packet_id: null,
    attachments: [{ url: 'javascript:x', name: X('attachment'), size: 1, num: 1, ext: 'pdf', is_image: false }],
  },
];

function expectInert(html: string) {
  expect(html).not.toMatch(/<script/i);
  expect(html).not.toMatch(/<img/i);
  expect(html).not.toMatch(/javascript:/i);
  expect(html).toContain('&lt;script>alert(');
}

describe('the console renders hostile strings as text', () => {
  it('the Bundle page: label, names, field values, file names, messages, webhook reasons', () => {
    for (const readOnly of [false, true]) {
      const html = renderToString(
        h(BundlePage, {
          r: inspection,
          data,
          now: NOW,
          readOnly,
          live: 'Live',
          liveUrl: '/console/bundles/x/live?seen=y',
        }),
      );
      expectInert(html);
      for (const where of [
        'label',
        'signer',
        'field value',
        'file name',
        'body',
        'subject',
        'webhook reason',
        'head',
        'fact label',
        'fact value',
        'attachment',
      ])
        expect(html).toContain(`alert(&quot;${where}&quot;)`);
    }
  });

  it('find, webhooks and verify answers', () => {
    const find = renderToString(
      h(FindPage, {
        f: findQuery({ q: X('query') }),
        now: NOW,
        notes: [X('note')],
        page: { items: [bundle], page: 1, per_page: 25, total: 1, total_pages: 1 },
      }),
    );
    expectInert(find);
    const page = <T>(items: T[]) => ({ items, page: 1, per_page: 25, total: items.length, total_pages: 1 });
    const hooks = renderToString(
      h(WebhooksPage, {
        hooks: page([
          {
            id: X('hook id'),
            name: X('hook name'),
            url: X('url'),
            enabled: true,
            json: true,
            event_types: [],
            extra_headers: [],
          },
        ]),
        health: [
          {
            events: 2,
            failing: 1,
            successRate: 0.5,
            lastFailure: { event: hookEvent, attempt: hookEvent.deliveries[0] },
            nextRetry: null,
          },
        ],
        failing: page([hookEvent]),
        recent: page([hookEvent]),
        urls: { hooks: () => '/h', failing: () => '/f', recent: () => '/r' },
        now: NOW,
        readOnly: false,
      }),
    );
    expectInert(hooks);
    expect(hooks).toContain('alert(&quot;webhook reason&quot;)');
    const verify = renderToString(
      h(VerifyAnswer, {
        r: {
          status: 'match',
          message: X('verify message'),
          sha256: X('sha'),
          document_type: 'signed_pdf',
          signed_at: X('signed at'),
          envelope: { bundle_slug: X('slug'), status: 'co', sent: null, completed_at: null },
        },
        now: NOW,
      }),
    );
    expectInert(verify);
  });
});
