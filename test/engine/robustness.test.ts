// Failures around document processing and shared state: nothing crashes, nothing is lost or stuck.
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../src/local/store/blobs.js';
import { CONTRACT_PDF, bundleRequest, useFileServer } from '../helpers.js';
import { eventKinds, useEngine } from './support.js';

const ctx = useEngine();
const server = useFileServer({
  '/contract.pdf': { body: CONTRACT_PDF },
  '/slow.pdf': { body: CONTRACT_PDF, delayMs: 300 },
  '/a.pdf': { status: 404, body: '' },
  '/b.pdf': { status: 500, body: '' },
});

const urlDocs = (...paths: string[]) =>
  bundleRequest({ documents: paths.map((p, i) => ({ key: `d${i}`, file_url: server.url(p) })) });

describe('document processing under failure', () => {
  it('a document that cannot be stored fails its Bundle instead of crashing or sticking in pe', async () => {
    const { e } = ctx;
    // A file where the blob's directory must go makes the store fail.
    mkdirSync(join(e.dataDir, 'blobs'), { recursive: true });
    writeFileSync(join(e.dataDir, 'blobs', sha256(CONTRACT_PDF).slice(0, 2)), 'in the way');
    const created = await e.createBundle(urlDocs('/contract.pdf'));
    await e.settle();
    const b = await e.getBundle(created.id);
    expect(b.status).toBe('fa');
    expect(b.errors[0].message).toMatch(/could not be processed/);
  });

  it('records every failed document, not only the first', async () => {
    const { e } = ctx;
    const created = await e.createBundle(urlDocs('/a.pdf', '/b.pdf'));
    await e.settle();
    const b = await e.getBundle(created.id);
    expect(b.status).toBe('fa');
    expect(b.errors.map((x) => x.errors?.[0].field).sort()).toEqual(['documents[0].file_url', 'documents[1].file_url']);
    expect((await eventKinds(e, b.id)).filter((k) => k === 'bf')).toHaveLength(2);
  });

  it('leases documents on wall-clock time, whatever the engine clock says', async () => {
    const { e } = ctx;
    e.clock.advance(3 * 86400e3);
    const created = await e.createBundle(urlDocs('/slow.pdf'));
    const lease = (e.db.prepare('SELECT lease_until FROM documents').get() as { lease_until: string }).lease_until;
    expect(Math.abs(Date.parse(lease) - Date.now())).toBeLessThan(5 * 60_000);
    await e.settle();
    expect((await e.getBundle(created.id)).status).toBe('se');
  });

  it('runDue finishes a document whose process went away (expired lease)', async () => {
    const { e } = ctx;
    const created = await e.createBundle(urlDocs('/contract.pdf'));
    await e.settle();
    // Simulate a document claimed by a process that was killed: pending, with a lapsed lease.
    e.db
      .prepare(`UPDATE documents SET state = 'pending', sha256 = NULL, lease_until = ?`)
      .run(new Date(Date.now() - 1000).toISOString());
    e.db.prepare(`UPDATE bundles SET status = 'pe', sent = NULL WHERE id = ?`).run(created.id);
    e.runDue();
    await e.settle();
    expect((await e.getBundle(created.id)).status).toBe('se');
  });
});

describe('signing links in messages', () => {
  it('carry a token, not the packet id', async () => {
    const { e } = ctx;
    const b = await e.createBundle(bundleRequest());
    const [m] = e.outbox({ packet: b.packets[0].id });
    const link = /\/sign\/([\w-]+)/.exec(m.body)![1];
    expect(link).not.toBe(b.packets[0].id);
    expect(link.length).toBeGreaterThanOrEqual(32);
    expect(e.db.prepare(`SELECT target FROM links WHERE kind = 'sign'`).all()).toContainEqual({
      target: b.packets[0].id,
    });
  });
});

describe('the clock', () => {
  it('is shared through the database: another engine on the same directory sees an advance', async () => {
    const { e } = ctx;
    const { LocalEngine } = await import('../../src/local/engine.js');
    const other = new LocalEngine({ dataDir: e.dataDir });
    try {
      e.clock.advance(7_200_000);
      e.clock.advance(3_600_000);
      expect(other.clock.offset()).toBe(10_800_000);
    } finally {
      await other.close();
    }
  });
});
