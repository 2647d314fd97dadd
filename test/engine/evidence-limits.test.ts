// A completed Bundle whose signed files exceed the processing limits fails once, in words, and is not
// tried again (before: left pending with a lease, drawn again every two minutes, for ever). The
// document sandbox and its limits are the real ones; the stored PDF is swapped after the create's
// check for one over them (a real document over the evidence job's limits takes a minute of CPU or a
// gigabyte of memory to find out).
import { signedFilesWord } from '../../src/domain/states.js';
import { chmodSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { classicXref } from '../../bench/hostile-documents.mjs';
import { inspectBundle } from '../../src/app/inspection.js';
import { processPendingEvidence } from '../../src/local/evidence/job.js';
import type { EngineContext } from '../../src/local/store/context.js';
import { bundleRequest, newEngine } from '../helpers.js';

let engine: ReturnType<typeof newEngine> | undefined;
afterEach(async () => engine?.dispose());

describe('evidence over the processing limits', () => {
  it('fails once, recorded in the Bundle errors and said where support reads, and is not retried', async () => {
    const reports: string[] = [];
    const e = (engine = newEngine({ report: (line) => reports.push(line) }));
    // A receiver subscribed to bundle_error: the spec's event for "failure in document processing after creation".
    const posts: { method: string; headers: IncomingHttpHeaders; body: string }[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        posts.push({ method: req.method!, headers: req.headers, body });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const hook = await e.createWebhook({ name: 'errors', url, event_types: ['bundle_error'] });
    const b = await e.createBundle(
      bundleRequest({ packets: [{ key: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' }] }),
    );
    const { sha256 } = e.db
      .prepare('SELECT d.sha256 FROM documents d JOIN bundles b ON b.seq = d.bundle_seq WHERE b.id = ?')
      .get(b.id) as { sha256: string };
    const path = e.blobPath(sha256);
    chmodSync(path, 0o600);
    writeFileSync(path, classicXref(600_000));

    await e.signPacket(b.packets[0]!.id, {});
    await e.settle();

    const done = await e.getBundle(b.id);
    expect(done.status).toBe('co');
    expect(done.doc_status).toBe('pe');
    const failed = done.errors.filter((x) => x.code === 'files_failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.message).toMatch(
      /^The signed PDFs and Certificates of Evidence could not be made: The document "contract\.pdf" exceeds the processing limits: its cross-reference table has 600,000 entries \(at most 500,000\)\. They are not tried again\.$/,
    );
    // The files' 409 says why, not "not ready yet".
    await expect(e.getBundleFiles(b.id)).rejects.toMatchObject({ status: 409, message: failed[0]!.message });
    expect(reports.filter((l) => l.includes(b.id))).toHaveLength(1);

    // Its lease over (or another process looking), nothing is claimed or drawn again.
    e.db.prepare('UPDATE bundles SET evidence_lease = NULL WHERE id = ?').run(b.id);
    const ctx = (e as unknown as { ctx: EngineContext }).ctx;
    expect(await processPendingEvidence(ctx)).toBe(0);
    expect(reports.filter((l) => l.includes(b.id))).toHaveLength(1);
    expect((await e.getBundle(b.id)).errors.filter((x) => x.code === 'files_failed')).toHaveLength(1);

    // What inspect and the console show: the error, and the files' note in the same words.
    const r = await inspectBundle(e, done);
    expect(r.files).toBeNull();
    expect(r.files_note).toBe(failed[0]!.message);
    // The header's word agrees: never "Pending" for files that will not come.
    expect(signedFilesWord(done)).toBe('Could not be made (see its error)');

    // One bundle_error webhook event, POSTed as every event is, and on the timeline in words.
    await e.deliverWebhooks();
    receiver.close();
    expect(posts).toHaveLength(1);
    const post = posts[0]!;
    expect(post.method).toBe('POST');
    expect(post.headers['x-blueink-signature']).toMatch(/\S/);
    const body = JSON.parse(post.body) as Record<string, unknown>;
    expect(body).toMatchObject({ event_type: 'bundle_error', payload: { bundle_id: b.id } });
    expect(Object.keys(body).sort()).toEqual(['account_id', 'event_date', 'event_id', 'event_type', 'payload']);
    const hookEvents = (await e.listWebhookEvents({ bundle: b.id })).items;
    expect(hookEvents.map((x) => [x.event_type, x.webhook, x.success])).toEqual([['bundle_error', hook.id, true]]);
    const ff = (await e.listBundleEvents(b.id)).filter((x) => x.kind === 'ff');
    expect(ff).toHaveLength(1);
    expect(ff[0]!.description).toMatch(
      /^Signed documents and Certificates of Evidence could not be made: The document/,
    );
    const again = await inspectBundle(e, await e.getBundle(b.id));
    expect(again.webhooks.map((w) => [w.name, w.outcome])).toEqual([['errors', '1 delivered']]);
  }, 60_000);
});

describe('a document that fails processing after creation', () => {
  it('fails the Bundle and sends one bundle_error webhook event, POSTed to the receiver', async () => {
    const e = (engine = newEngine());
    const posts: string[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        if (req.url === '/missing.pdf') return res.writeHead(404).end('gone');
        posts.push(body);
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      await e.createWebhook({ name: 'errors', url: `${origin}/hooks`, event_types: ['bundle_error'] });
      const b = await e.createBundle(
        bundleRequest({ documents: [{ key: 'contract', file_url: `${origin}/missing.pdf` }] }),
      );
      await e.settle();
      const failed = await e.getBundle(b.id);
      expect(failed.status).toBe('fa');
      expect(failed.errors[0]!.message).toMatch(/^Document "contract" could not be processed: /);
      await e.deliverWebhooks();
      expect(posts).toHaveLength(1);
      expect(JSON.parse(posts[0]!)).toMatchObject({ event_type: 'bundle_error', payload: { bundle_id: b.id } });
      // What support reads: the state and why.
      const r = await inspectBundle(e, failed);
      expect(r.timeline.find((t) => t.code === 'bf')?.facts[0]?.value).toMatch(/could not be processed/);
    } finally {
      server.close();
    }
  }, 60_000);
});
