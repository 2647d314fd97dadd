// Item 8: the limiter's memory is bounded, links are built from the server's own address, redirect
// URLs are http(s) only, and attachments are checked against their type and served nosniff.
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/server/rateLimit.js';
import { withField } from '../engine/support.js';
import { bundleRequest } from '../helpers.js';
import { type SecureServer, startServer } from './securityServer.js';

let srv: SecureServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

describe('smaller ones', () => {
  it('keeps the per-address limiter bounded however many addresses call', () => {
    const limiter = new RateLimiter({ limit: 10, createLimit: 1, windowSeconds: 3600 }, Date.now, 10_000);
    for (let i = 0; i < 210_000; i++) limiter.take(`ip:10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, 'call');
    expect(limiter.size).toBeLessThanOrEqual(10_000);
    // The newest client is still counted.
    const last = 'ip:10.3.52.15';
    for (let i = 0; i < 9; i++) limiter.take(last, 'call');
    expect(limiter.take(last, 'call').ok).toBe(false);
  });

  it("builds Link headers from the server's address, not from the Host header", async () => {
    srv = await startServer();
    for (let i = 0; i < 3; i++) await srv.call('/api/v2/persons/', { method: 'POST', json: { name: `P${i}` } });
    // fetch may not set Host: undici's request may.
    const res = await request(`${srv.origin}/api/v2/persons/?per_page=1`, {
      headers: { host: 'evil.example', authorization: `Token ${srv.key}` },
    });
    await res.body.dump();
    expect(res.statusCode).toBe(200);
    const link = String(res.headers.link);
    expect(link).not.toContain('evil.example');
    expect(link).toContain(`<${srv.origin}/api/v2/persons/?per_page=1&page=2>; rel="next"`);
  });

  it('refuses redirect URLs that are not http(s)', async () => {
    srv = await startServer();
    const prep = await srv.call('/api/v2/bundles/preparation_session/', {
      method: 'POST',
      json: { upload_pdf: true, redirect_url: 'javascript:alert(document.cookie)' },
    });
    expect(prep.status).toBe(400);
    const bundle = await srv.call('/api/v2/bundles/', {
      method: 'POST',
      json: bundleRequest({
        packets: [
          { key: 'ada', name: 'Ada', email: 'ada@example.com', signing_complete_redirect: 'javascript:alert(1)' },
        ],
      }),
    });
    expect(bundle.status).toBe(400);
  });

  it('refuses an attachment whose bytes are not its type, and serves files nosniff', async () => {
    srv = await startServer();
    const created = await srv.call('/api/v2/bundles/', {
      method: 'POST',
      json: withField({ key: 'f', kind: 'att', required: true, v_attachment_types: ['pdf', 'png'] }),
    });
    expect(created.status).toBe(201);
    const b = (await created.json()) as { id: string; packets: { id: string }[] };
    const html = Buffer.from('<html><script>alert(1)</script></html>').toString('base64');
    const bad = await srv.call(`/sandbox/packets/${b.packets[0]!.id}/sign/`, {
      method: 'POST',
      json: { attachments: { f: [{ name: 'scan.png', b64: html }] } },
    });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/not a \.png file/);

    srv.engine.account.setFeatures(['interim_files'], true);
    expect((await srv.call(`/api/v2/bundles/${b.id}/files/`, { method: 'PUT' })).status).toBe(200);
    const [file] = (await (await srv.call(`/api/v2/bundles/${b.id}/files/`)).json()) as { file_url: string }[];
    const served = await fetch(file!.file_url);
    expect(served.status).toBe(200);
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
