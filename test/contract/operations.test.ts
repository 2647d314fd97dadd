// Port operations that the other contract files do not reach, on every backend; and a guard that
// every operation of the port appears in some contract scenario.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LocalEngine } from '../../src/local/engine.js';
import { RemoteService } from '../../src/remote/remote.js';
import { DEFAULT_RATE_LIMITS } from '../../src/domain/rateLimits.js';
import { bundleRequest, expectApiError } from '../helpers.js';
import { BACKENDS, useBackend } from './backends.js';

describe.each(BACKENDS)('contract operations: $name', ({ make }) => {
  const b = useBackend(make);

  it('deletes drafts only', async () => {
    const draft = await b.service.createBundle(bundleRequest({ status: 'dr' }));
    const sent = await b.service.createBundle(bundleRequest());
    await expectApiError(b.service.deleteBundle(sent.id), 409, { code: 'conflict', message: /Only drafts/ });
    await b.service.deleteBundle(draft.id);
    await expectApiError(b.service.getBundle(draft.id), 404, { code: 'not_found' });
    await expectApiError(b.service.deleteBundle(draft.id), 404, { code: 'not_found' });
    expect((await b.service.getBundle(sent.id)).status).toBe('se');
  });

  it('expires a Bundle in progress, with its unfinished packets, once', async () => {
    const created = await b.service.createBundle(bundleRequest({ in_order: false }));
    await b.service.signPacket(created.packets[0]!.id, {});
    const expired = await b.service.expireBundle(created.id);
    expect(expired.status).toBe('ex');
    expect(expired.packets.map((p) => p.status)).toEqual(['co', 'ex']);
    expect((await b.service.listBundleEvents(created.id)).map((e) => e.kind)).toContain('be');
    await expectApiError(b.service.expireBundle(created.id), 409, { code: 'conflict' });
    await expectApiError(b.service.signPacket(created.packets[1]!.id, {}), 409);
    await expectApiError(b.service.expireBundle('missing'), 404, { code: 'not_found' });
  });

  it('generates interim files only with the account feature, and only for a Bundle in progress', async () => {
    const created = await b.service.createBundle(bundleRequest());
    await expectApiError(b.service.generateInterimFiles(created.id), 403, { code: 'permission_denied' });
    b.engine.account.setFeatures(['interim_files'], true);
    const draft = await b.service.createBundle(bundleRequest({ status: 'dr' }));
    await expectApiError(b.service.generateInterimFiles(draft.id), 409, { code: 'conflict' });
    expect((await b.service.generateInterimFiles(created.id)).doc_status).toBe('in');
    const files = await b.service.getBundleFiles(created.id);
    expect(files.map((f) => [f.kind, f.doc_key])).toEqual([['interim_pdf', 'contract']]);
    expect((await b.download(files[0]!.file_url)).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it("tells the account's features and verified users (what a create's check reads), as they change", async () => {
    const facts = () => b.service.accountFacts();
    expect(await facts()).toEqual({
      features: b.engine.account.settings().features,
      verified_addresses: ['owner@example.com'],
    });
    b.engine.account.addUser({ email: 'pat@example.com', verified: true });
    b.engine.account.addUser({ email: 'sam@example.com', verified: false });
    b.engine.account.setFeatures(['office_upload'], true);
    const now = await facts();
    expect(now.verified_addresses.sort()).toEqual(['owner@example.com', 'pat@example.com']);
    expect(now.features).toContain('office_upload');
  });

  it('reports the rate-limit window: the documented limits, nothing used yet, resetting within the window', async () => {
    const before = Math.floor(Date.now() / 1000);
    const r = await b.service.getRateLimit();
    expect(r).toEqual({
      limit: DEFAULT_RATE_LIMITS.limit,
      remaining: DEFAULT_RATE_LIMITS.limit,
      window: DEFAULT_RATE_LIMITS.windowSeconds,
      reset: expect.any(Number),
    });
    expect(r.reset).toBeGreaterThanOrEqual(before + DEFAULT_RATE_LIMITS.windowSeconds);
    expect(r.reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + DEFAULT_RATE_LIMITS.windowSeconds);
    // Asking for the status uses no request of the window.
    expect((await b.service.getRateLimit()).remaining).toBe(DEFAULT_RATE_LIMITS.limit);
  });
});

describe('contract coverage', () => {
  it('exercises every operation of the port in some contract scenario', () => {
    const dir = dirname(fileURLToPath(import.meta.url));
    const sources = readdirSync(dir)
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => readFileSync(join(dir, f), 'utf8'))
      .join('\n');
    const remote = new RemoteService({ baseUrl: 'http://127.0.0.1:9/api/v2', apiKey: 'k', maxRetries: 0 });
    // The port's operations: what both adapters implement (the remote adapter's helpers are its own).
    const engineOps = new Set(Object.getOwnPropertyNames(LocalEngine.prototype));
    const ops = [...Object.keys(remote), ...Object.getOwnPropertyNames(RemoteService.prototype)].filter(
      (k) =>
        typeof (remote as unknown as Record<string, unknown>)[k] === 'function' &&
        engineOps.has(k) &&
        k !== 'constructor' &&
        k !== 'close',
    );
    expect(ops.length).toBeGreaterThanOrEqual(60);
    const untested = ops.filter((op) => !new RegExp(`\\.${op}\\(`).test(sources));
    expect(untested).toEqual([]);
  });
});
