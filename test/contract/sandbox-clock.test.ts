// The sandbox's clock and outbox as port operations, on every backend: a reminder made due by a
// clock move is applied at once and lands in the outbox, read back through the same port; bad
// input is the API's Error object naming the field.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RemoteService } from '../../src/remote/remote.js';
import { ClockMoveSchema, OutboxMessageSchema, SandboxInfoSchema } from '../../src/domain/responseSchemas.js';
import { apiCaller, serveEngine } from '../engineServer.js';
import { bundleRequest, expectApiError, newEngine } from '../helpers.js';
import { BACKENDS, useBackend } from './backends.js';

const DAY = 86_400_000;

describe.each(BACKENDS)('sandbox clock and outbox: $name', ({ make }) => {
  const b = useBackend(make);

  it('says what its sandbox offers', async () => {
    expect(await b.service.describeSandbox()).toEqual({
      signer_actions: true,
      clock: true,
      outbox: true,
      webhook_tools: true,
      request_log: true,
      // The engine sets its own fixtures up; a server's own account does not (its sandboxes do).
      fixtures: b.service === b.engine,
    });
  });

  it('moves the clock, applies the reminders it makes due, and resets it', async () => {
    const before = await b.service.getClock();
    expect(before.offset_ms).toBe(0);
    const created = await b.service.createBundle(bundleRequest({ reminder_offset: 2, reminder_interval: 1 }));
    const [ada] = created.packets;

    const moved = await b.service.advanceClock(2 * DAY + 1000);
    expect(moved.offset_ms).toBe(2 * DAY + 1000);
    expect(Date.parse(moved.now) - Date.parse(before.now)).toBeGreaterThanOrEqual(2 * DAY + 1000);
    expect(moved).toMatchObject({ expired: 0, reminded: 2 });
    expect(b.engine.clock.offset()).toBe(2 * DAY + 1000);

    const reminders = await b.service.listOutbox({ bundle: created.id, kind: 'reminder' });
    expect(reminders.map((m) => m.recipient).sort()).toEqual(['ada@example.com', 'bob@example.com']);
    const toAda = await b.service.listOutbox({ bundle: created.id, to: 'ADA@example.com' });
    expect(toAda.map((m) => m.kind)).toEqual(['signing_request', 'reminder']);
    expect(toAda.every((m) => m.packet_id === ada!.id)).toBe(true);
    const newest = await b.service.listOutbox({ bundle: created.id, limit: 1 });
    expect(newest).toHaveLength(1);
    expect(newest[0]!.kind).toBe('reminder');

    const reset = await b.service.resetClock();
    expect(reset.offset_ms).toBe(0);
    expect((await b.service.getClock()).offset_ms).toBe(0);
  });

  it('reads back the request log, filtered, newest last, and refuses a bad filter', async () => {
    const entry = (path: string, status: number) => ({
      time: new Date().toISOString(),
      method: 'GET',
      path,
      status,
      ms: 1,
      key_id: null,
      operation: 'getBundle',
    });
    b.engine.recordRequest(entry('/api/v2/bundles/contract-log-a/', 404));
    b.engine.recordRequest(entry('/api/v2/bundles/contract-log-b/', 200));
    b.engine.recordRequest(entry('/api/v2/bundles/contract-log-c/', 404));
    const seen: string[] = [];
    await b.service.followRequests(
      { filter: { status: '4xx', path: '/api/v2/bundles/contract-log-' }, backlog: 10, follow: false },
      (e) => seen.push(e.path),
    );
    expect(seen).toEqual(['/api/v2/bundles/contract-log-a/', '/api/v2/bundles/contract-log-c/']);
    await expectApiError(
      b.service.followRequests({ filter: { status: 'teapot' }, follow: false }, () => {}),
      400,
      { field: 'status' },
    );
  });

  it('refuses a move that is not a whole positive number of milliseconds, and a bad outbox filter', async () => {
    await expectApiError(b.service.advanceClock(0), 400, { field: 'ms' });
    await expectApiError(b.service.advanceClock(1.5), 400, { field: 'ms' });
    await expectApiError(b.service.advanceClock(11 * 365 * DAY), 400, { field: 'ms' });
    await expectApiError(b.service.listOutbox({ kind: 'postcard' }), 400, { field: 'kind' });
    await expectApiError(b.service.listOutbox({ limit: 1001 }), 400, { field: 'limit' });
    expect((await b.service.getClock()).offset_ms).toBe(0);
  });
});

describe('a server without a sandbox (as the hosted service)', () => {
  it('answers 404 under /sandbox/, which the remote adapter reads as a sandbox offering nothing', async () => {
    const engine = newEngine();
    // Served without the engine as host: the API alone, no /sandbox/ routes, as the hosted service.
    const served = await serveEngine(engine, { local: undefined });
    const remote = new RemoteService({ baseUrl: `${served.origin}/api/v2`, apiKey: served.key, maxRetries: 0 });
    try {
      const raw = await apiCaller(served.origin, served.key)('/sandbox/');
      expect(raw.status).toBe(404);
      expect(await remote.describeSandbox()).toEqual({
        signer_actions: false,
        clock: false,
        outbox: false,
        webhook_tools: false,
        request_log: false,
        fixtures: false,
      });
      await expectApiError(remote.advanceClock(1000), 404);
      expect(engine.clock.offset()).toBe(0);
    } finally {
      await remote.close();
      await served.close();
      await engine.dispose();
    }
  });

  it('esign serve answers the sandbox routes with a key only, in the shapes the table names', async () => {
    const engine = newEngine();
    const served = await serveEngine(engine);
    const call = apiCaller(served.origin, served.key);
    try {
      expect((await call('/sandbox/clock/', { auth: null })).status).toBe(401);
      const moved = await call('/sandbox/clock/advance/', { method: 'POST', json: { ms: 90_000 } });
      expect(moved.status).toBe(200);
      expect(ClockMoveSchema.strict().parse(await moved.json())).toMatchObject({ offset_ms: 90_000 });
      const bad = await call('/sandbox/clock/advance/', { method: 'POST', json: { ms: '3d' } });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({ code: 'invalid', errors: [{ field: 'ms' }] });
      const info = await call('/sandbox/');
      expect(SandboxInfoSchema.strict().parse(await info.json())).toMatchObject({ clock: true });
      const outbox = await call('/sandbox/outbox/?limit=5');
      expect(z.array(OutboxMessageSchema.strict()).parse(await outbox.json())).toEqual([]);
    } finally {
      await served.close();
      await engine.dispose();
    }
  });
});
