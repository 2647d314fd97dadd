// Webhook delivery across processes: a one-shot command delivers what it queued before it exits
// (within its time budget), a killed process loses nothing, and esign serve delivers continuously.
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalEngine } from '../../src/local/engine.js';
import { LEASE_MS, ONE_SHOT_BUDGET_MS } from '../../src/local/webhooks/dispatcher.js';
import { CONTRACT_B64, tempDir } from '../helpers.js';
import { type Receiver, startReceiver } from '../webhooks/receiver.js';
import { BIN, startServe } from './serveProcess.js';

let data: ReturnType<typeof tempDir>;
let rx: Receiver;
let env: Record<string, string>;

beforeEach(async () => {
  data = tempDir('esign-cli-webhooks-');
  rx = await startReceiver();
  env = { ESIGN_DATA_DIR: join(data.dir, 'db'), NO_COLOR: '1' };
  await withEngine((e) => e.createWebhook({ name: 'rx', url: rx.url, event_types: ['bundle_sent'] }));
});
afterEach(async () => {
  await rx.close();
  data.cleanup();
});

/** The test's own view of the data directory, as a second process would have it (on a wall clock `wallMs`). */
async function withEngine<T>(fn: (e: LocalEngine) => Promise<T>, wallMs?: () => number): Promise<T> {
  const e = new LocalEngine({ dataDir: env.ESIGN_DATA_DIR!, wallMs });
  try {
    return await fn(e);
  } finally {
    await e.close();
  }
}

const spec = JSON.stringify({
  label: 'Webhooks',
  packets: [{ key: 'ada', name: 'Ada', email: 'ada@example.com' }],
  documents: [{ key: 'c', file_b64: CONTRACT_B64 }],
});
const create = () => execa('node', [BIN, 'bundle', 'create', '-f', '-', '-q'], { env, input: spec, reject: false });

describe('webhook delivery from the command line', () => {
  it('a one-shot command delivers the events it caused before it exits', async () => {
    const r = await create();
    expect(r.exitCode, r.stderr).toBe(0);
    expect(rx.received).toHaveLength(1);
    expect(JSON.parse(rx.received[0]!.body).payload.bundle_id).toBe(r.stdout.trim());
  });

  it('waits a bounded time for a receiver that does not answer, and leaves the event due', async () => {
    // The process must end within its one-shot budget once the receiver has the request (the hanging
    // connection must not keep it alive), with room for a loaded machine.
    const budget = ONE_SHOT_BUDGET_MS;
    rx.respond = () => 'hang';
    const r = await create();
    const exited = Date.now();
    expect(r.exitCode, r.stderr).toBe(0);
    expect(rx.received).toHaveLength(1);
    expect(exited - rx.received[0]!.at).toBeLessThan(budget + 3_000);
    rx.respond = () => 200;
    const n = rx.received.length;
    await withEngine(async (e) => expect(await e.deliverWebhooks()).toEqual({ delivered: 1, failed: 0 }));
    expect(rx.received).toHaveLength(n + 1);
  });

  it('loses nothing when the process is killed during delivery: the event is delivered again once its lease ends', async () => {
    // The process's lease; the test then moves its own engine's wall clock past it instead of
    // waiting it out.
    const lease = LEASE_MS;
    rx.respond = () => 'hang';
    const child = create();
    const startedAt = Date.now();
    // The create's own checks come first (its document's, in the sandbox at nice 10): under load the
    // delivery came after the receiver's usual 10 s. The child ending first fails at once, saying why.
    await Promise.race([
      rx.waitFor(1, 60_000),
      child.then((r) => {
        throw new Error(`esign bundle create ended (${r.exitCode}) before its delivery: ${r.stderr}`);
      }),
    ]);
    child.kill('SIGKILL');
    await child;
    rx.respond = () => 200;
    let wall: number | undefined;
    await withEngine(
      async (e) => {
        // The dead process still holds the lease (wall time) it took with its own length; then another process delivers.
        const row = e.db.prepare('SELECT lease_until FROM webhook_events').get() as { lease_until: string | null };
        const leaseEnds = Date.parse(row.lease_until ?? '');
        expect(leaseEnds - startedAt).toBeGreaterThan(0);
        expect(leaseEnds - Date.now()).toBeLessThanOrEqual(lease);
        expect(Date.now()).toBeLessThan(leaseEnds);
        expect(await e.deliverWebhooks()).toEqual({ delivered: 0, failed: 0 });
        wall = leaseEnds - 1;
        expect(await e.deliverWebhooks()).toEqual({ delivered: 0, failed: 0 });
        wall = leaseEnds;
        expect(await e.deliverWebhooks()).toEqual({ delivered: 1, failed: 0 });
        const [event] = (await e.listWebhookEvents()).items;
        expect(event).toMatchObject({ success: true, status: 200 });
      },
      () => wall ?? Date.now(),
    );
    const ids = rx.received.map((r) => JSON.parse(r.body).event_id);
    expect(ids).toHaveLength(2);
    expect(ids[0]).toBe(ids[1]);
  }, 90_000);

  it('esign serve delivers events queued by other processes, and by its own API', async () => {
    // The receiver listens on 127.0.0.1: a private address, which esign serve reaches only when allowed.
    const serve = await startServe(env, ['--allow-private-urls']);
    try {
      const r = await create();
      expect(r.exitCode, r.stderr).toBe(0);
      await rx.waitFor(1, 5_000);
      const key = await withEngine(async (e) => e.keys.create('t').key);
      const res = await fetch(`${serve.address}/api/v2/bundles/`, {
        method: 'POST',
        headers: { authorization: `Token ${key}`, 'content-type': 'application/json' },
        body: spec,
      });
      expect(res.status).toBe(201);
      const b = (await res.json()) as { id: string };
      const got = await rx.waitFor(2, 5_000);
      expect(got.map((g) => JSON.parse(g.body).payload.bundle_id)).toContain(b.id);
    } finally {
      serve.process.kill('SIGTERM');
      await serve.process;
    }
  });
});
