// The six jobs of issue 48's done-when, as an agent runs them with the default tool set and the
// official SDK client, on both transports: `esign mcp` over stdio (the local engine; documents and the
// CSV from file paths) and `esign serve`'s /mcp (documents as base64, the CSV as text; nothing of the
// server's disk). 1: send an NDA to Ada then Bob in order (a retry sends nothing, the go-ahead gate),
// sign in the sandbox, wait, download and verify the signed files; 2: why Bob has not signed; 3: a
// webhook whose receiver fails, fixed and its events resent; 6: whether a PDF is one of ours; 4: every
// draft older than a week cancelled (the sandbox clock moved 8 days); 5: a CSV of 20 people sent the
// same NDA (dry run, the go-ahead, the send, a repeat sending nothing). Every step is right the first
// time: each call's answer is asserted as it comes. Every answer is checked by support.ts (schema,
// size, prose then data). ESIGN_MCP_TRANSCRIPT=FILE writes the calls and the answers' prose there.
import { createHash } from 'node:crypto';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from '../cli/serveProcess.js';
import { CONTRACT_B64, CONTRACT_PDF, fixture, tempDir } from '../helpers.js';
import { type Connected, call, httpClient, type Reply, seed, stdioClient } from './support.js';

const data = tempDir('esign-mcp-scenario-');
const NDA_B64 = readFileSync(fixture('nda.pdf')).toString('base64');
const transcript = process.env.ESIGN_MCP_TRANSCRIPT;
let serve: ServeProcess;
let stdio: Connected;
let http: Connected;

/** A webhook receiver that fails with a body of its own until told to answer 200. */
let receiverOk = false;
let receiver: Server;
let receiverUrl: string;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (receiverOk) res.writeHead(200).end('ok');
      else res.writeHead(503, { 'content-type': 'text/plain' }).end('upstream database timeout (pool exhausted)');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  await seed(join(data.dir, 'stdio'));
  const served = join(data.dir, 'served');
  const seeded = await seed(served);
  serve = await startServe({ PATH: process.env.PATH ?? '', ESIGN_DATA_DIR: served }, ['--allow-private-urls']);
  stdio = await stdioClient({ ESIGN_DATA_DIR: join(data.dir, 'stdio') });
  http = await httpClient(serve.address, seeded.key);
}, 60_000);
afterAll(async () => {
  await stdio?.client.close();
  await http?.client.close();
  await serve?.stop();
  receiver?.close();
  data.cleanup();
});

/** Every answer over HTTP, whole: none may name a path of the server's machine. */
const overHttp: string[] = [];

/** A call, written to the transcript when one is asked for. */
async function step(c: Connected, name: string, args: Record<string, unknown>): Promise<Reply> {
  const r = await call(c, name, args);
  if (!c.fileAccess) overHttp.push(JSON.stringify(r.result));
  if (transcript) {
    const shown = JSON.stringify(args, (k, v) =>
      k === 'base64' || k === 'file_b64' ? `<${String(v).length} chars of base64>` : v,
    );
    appendFileSync(
      transcript,
      `> ${c.fileAccess ? 'stdio' : 'http '} ${name} ${shown}\n< ${r.isError ? 'ERROR ' : ''}${r.prose}\n`,
    );
  }
  return r;
}

async function good(c: Connected, name: string, args: Record<string, unknown>) {
  const r = await step(c, name, args);
  expect(r.isError, `${name}: ${r.text}`).toBe(false);
  return r;
}

const signers = [
  { name: 'Ada Lovelace', email: 'ada@example.com' },
  { name: 'Bob Example', email: 'bob@example.com' },
];

/** A heading in the transcript. */
function job(title: string) {
  if (transcript) appendFileSync(transcript, `\n## ${title}\n`);
}

const DAY = 86_400_000;

async function scenario(c: Connected) {
  const document = c.fileAccess ? { path: fixture('contract.pdf') } : { base64: CONTRACT_B64, name: 'contract.pdf' };
  const request = { label: 'NDA for Ada and Bob', signers, documents: [document], in_order: true, confirm: true };

  // A webhook first, to a receiver that fails: its deliveries are job 3's story.
  job('Setup: a webhook to a receiver that fails');
  await good(c, 'call_operation', {
    operation: 'create_webhook',
    arguments: { body: { name: 'Ops receiver', url: receiverUrl, event_types: ['bundle_sent', 'bundle_complete'] } },
  });

  job('Job 1: send an NDA to Ada then Bob, in order, and deliver the verified signed files');
  // Send for signature, then the same call again (a retry after a lost answer): one Bundle, one send.
  const sent = await good(c, 'send_for_signature', request);
  const bundle = sent.data.bundle as { id: string; state: string; signers: { id: string }[] };
  expect([sent.data.existing, bundle.state]).toEqual([false, 'Sent']);
  expect(sent.prose).toMatch(new RegExp(`^Made Bundle ${bundle.id} and sent it to 2 signers`));
  const again = await good(c, 'send_for_signature', request);
  expect([(again.data.bundle as { id: string }).id, again.data.existing]).toEqual([bundle.id, true]);
  expect(again.prose).toMatch(/already exists for this request .*nothing was created or sent now/);
  const story = await good(c, 'bundle_story', { id: bundle.id });
  const requests = (story.data.timeline as { source: string; code: string }[]).filter(
    (t) => t.source === 'message' && t.code === 'signing_request',
  );
  expect(requests, 'in order: only Ada is asked to sign so far, and the retry sent nothing').toHaveLength(1);

  // The go-ahead: without confirm, a change says what it would do (ids, not labels) and does nothing.
  const held = await step(c, 'cancel_bundle', { id: bundle.id });
  expect(held.isError).toBe(true);
  expect(held.prose).toBe(
    `Not done: this would cancel Bundle ${bundle.id} (Sent, 2 signers). Nothing was changed. Call again with confirm: true to do it.`,
  );
  expect((held.data.error as { target: { label: string } }).target.label).toBe('NDA for Ada and Bob');
  expect(((await good(c, 'find_bundles', { search: bundle.id })).data.bundles as { state: string }[])[0]!.state).toBe(
    'Sent',
  );

  // The signers sign in their order (the sandbox), and the agent waits for the signed files.
  for (const s of bundle.signers) await good(c, 'act_as_signer', { id: s.id, action: 'sign', confirm: true });
  const waited = await good(c, 'wait_for_bundles', { ids: [bundle.id], until: 'docs-ready', timeout_seconds: 60 });
  expect(waited.data.outcome).toBe('reached');

  // Download and verify.
  let hashes: string[];
  let signedFile: string | undefined;
  if (c.fileAccess) {
    const dir = join(data.dir, 'downloads');
    const saved = await good(c, 'download_files', { id: bundle.id, dir });
    const files = saved.data.saved as { path: string; sha256: string }[];
    for (const f of files) expect(createHash('sha256').update(readFileSync(f.path)).digest('hex')).toBe(f.sha256);
    expect(saved.links.every((l) => l.uri.startsWith('file://'))).toBe(true);
    const signed = (saved.data.files as { kind: string; index: number }[]).filter((f) => f.kind !== 'document');
    const paths = signed.map((f) => files.find((s) => (s as unknown as { index: number }).index === f.index)!.path);
    const verified = await good(c, 'verify_documents', { paths });
    expect(verified.data.all_match).toBe(true);
    signedFile = paths[0];
    // Saving again keeps the files that are already there, the same bytes.
    expect((await good(c, 'download_files', { id: bundle.id, dir })).prose).toMatch(
      /already there with the same bytes, kept/,
    );
    hashes = files.map((f) => f.sha256);
  } else {
    const listed = await good(c, 'download_files', { id: bundle.id });
    const files = listed.data.files as { kind: string; uri: string; sha256: string }[];
    expect(listed.links.map((l) => l.uri)).toEqual(files.map((f) => f.uri));
    for (const f of files) {
      const read = await c.client.readResource({ uri: f.uri });
      const blob = Buffer.from((read.contents[0] as { blob: string }).blob, 'base64');
      expect(createHash('sha256').update(blob).digest('hex')).toBe(f.sha256);
    }
    hashes = files.filter((f) => f.kind !== 'document').map((f) => f.sha256);
  }
  const verified = await good(c, 'verify_documents', { hashes });
  expect(verified.data.all_match).toBe(true);

  // A change that cannot happen says so.
  const impossible = await step(c, 'cancel_bundle', { id: bundle.id });
  expect(impossible.prose).toBe(
    `Not possible: Bundle ${bundle.id} is Complete: only a Bundle that has not ended can be cancelled. Nothing was changed.`,
  );

  job('Job 2: why has Bob not signed?');
  const inOrder = await good(c, 'send_for_signature', { ...request, label: 'NDA in order, Ada first' });
  const waiting = (inOrder.data.bundle as { id: string }).id;
  const why = await good(c, 'bundle_story', { id: waiting });
  expect(why.prose).toMatch(
    new RegExp(
      `^Bundle ${waiting} is Sent with 2 signers and \\d+ files?; 1 signer waits for another to sign first \\(signers\\[\\]\\.waiting names whom\\)`,
    ),
  );
  const people = why.data.signers as { name: string; waiting: string | null }[];
  expect(people.map((p) => [p.name, p.waiting])).toEqual([
    ['Ada Lovelace', null],
    ['Bob Example', 'signs in order: waits for Ada Lovelace (not viewed yet)'],
  ]);

  job("Job 3: a failing webhook's events, fixed and resent");
  let health: Reply;
  for (let i = 0; ; i++) {
    health = await good(c, 'webhook_health', {});
    const hook = (health.data.webhooks as { not_delivered: number; failing: { attempts: number }[] }[])[0]!;
    if (hook.failing.length >= 2 && hook.failing.every((e) => e.attempts > 0)) break;
    expect(i, 'deliveries attempted within 30 s').toBeLessThan(60);
    await new Promise((r) => setTimeout(r, 500));
  }
  expect(health.prose).toMatch(/^\d+ events not delivered, on 1 webhook\. /);
  const hook = (
    health.data.webhooks as { failing: { event: string; last_status: number; last_outcome: string }[] }[]
  )[0]!;
  // What the receiver answered is kept, except where esign serve may reach private addresses (as
  // here, for a receiver on 127.0.0.1): there an internal service's reply must not become readable.
  expect(hook.failing[0]).toMatchObject({
    last_status: 503,
    last_outcome: c.fileAccess ? 'HTTP 503: upstream database timeout (pool exhausted)' : 'HTTP 503',
  });
  // Fixed: resend what failed, with the go-ahead.
  receiverOk = true;
  const webhookId = (health.data.webhooks as { webhook: { id: string } }[])[0]!.webhook.id;
  await expect(step(c, 'resend_webhook_events', { webhook: webhookId })).resolves.toMatchObject({ isError: true });
  const resent = await good(c, 'resend_webhook_events', { webhook: webhookId, confirm: true });
  expect((resent.data.resent as { success: boolean }[]).every((r) => r.success)).toBe(true);
  expect((await good(c, 'webhook_health', { webhook: webhookId })).prose).toMatch(
    /^1 webhook: every event delivered\./,
  );
  receiverOk = false;

  job('Job 6: is this PDF one of ours?');
  const ours = await good(c, 'verify_documents', signedFile ? { paths: [signedFile] } : { hashes: [hashes[0]!] });
  expect(ours.prose).toMatch(/^1 of 1 file matches a completed Bundle's signed files\./);
  const notOurs = await good(
    c,
    'verify_documents',
    c.fileAccess
      ? { paths: [fixture('contract.pdf')] }
      : { hashes: [createHash('sha256').update(CONTRACT_PDF).digest('hex')] },
  );
  expect(notOurs.data.all_match).toBe(false);
  expect(notOurs.prose).toMatch(/^0 of 1 file matches a completed Bundle's signed files\./);

  job('Job 4: cancel every draft older than a week');
  const draft = async (label: string) =>
    ((await good(c, 'send_for_signature', { ...request, label, draft: true })).data.bundle as { id: string }).id;
  const old = [await draft('Old NDA 1'), await draft('Old NDA 2'), await draft('Old NDA 3')];
  await good(c, 'call_operation', { operation: 'advance_clock', arguments: { ms: 8 * DAY, confirm: true } });
  const fresh = await draft('Fresh NDA');
  const find = { states: ['draft'], older_than_days: 7 };
  const preview = await step(c, 'cancel_bundle', { find });
  expect(preview.isError).toBe(true);
  expect(preview.prose).toMatch(/^Not done: this would cancel 3 Bundles: their signers can no longer sign\./);
  const named = (preview.data.error as { target: { bundles: { id: string }[] } }).target.bundles;
  expect(named.map((b) => b.id).sort()).toEqual([...old].sort());
  const cancelled = await good(c, 'cancel_bundle', { find, confirm: true });
  expect(cancelled.prose).toMatch(/^Cancelled 3 Bundles/);
  const drafts = await good(c, 'find_bundles', { states: ['draft'] });
  expect((drafts.data.bundles as { id: string }[]).map((b) => b.id)).toEqual([fresh]);

  job('Job 5: send a CSV of 20 people the same NDA');
  const people20 = Array.from({ length: 20 }, (_, i) => `Person ${i + 1},person${i + 1}@example.com`);
  const csvText = `name,email\n${people20.join('\n')}\n`;
  const nda = {
    label: 'NDA for {{name}}',
    email_subject: 'Please sign the NDA',
    packets: [{ key: 'signer', name: '{{name}}', email: '{{email}}' }],
    documents: [{ key: 'nda', ...(c.fileAccess ? { file_path: fixture('nda.pdf') } : { file_b64: NDA_B64 }) }],
  };
  let csv: Record<string, string> = { csv: csvText };
  if (c.fileAccess) {
    const path = join(data.dir, 'people.csv');
    writeFileSync(path, csvText);
    csv = { csv_path: path };
  }
  const dry = await good(c, 'send_batch', { ...csv, spec: nda, dry_run: true });
  expect(dry.data).toMatchObject({ rows: 20, would_create: 20, skipped: 0, exists: 0, invalid: 0 });
  const ask = await step(c, 'send_batch', { ...csv, spec: nda });
  expect(ask.isError).toBe(true);
  expect(ask.prose).toMatch(/^Not done: this would send batch \w+: 20 new Bundles to 20 signers/);
  const batch = await good(c, 'send_batch', { ...csv, spec: nda, confirm: true });
  expect(batch.data).toMatchObject({ outcome: 'done', rows: 20, created: 20, skipped: 0, failed: 0 });
  const emails = await good(c, 'find_bundles', { search: 'NDA for Person', page_size: 50 });
  expect(emails.data.total).toBe(20);
  const again20 = await good(c, 'send_batch', { ...csv, spec: nda, confirm: true });
  expect(again20.data).toMatchObject({ outcome: 'done', created: 0, skipped: 20 });

  // A Bundle cancelled, then asked for again with the same arguments: it exists, cancelled, nothing sent.
  job('Afterwards: a retry of a cancelled send');
  const other = { ...request, label: 'Cancelled later' };
  const made = (await good(c, 'send_for_signature', other)).data.bundle as { id: string };
  await good(c, 'cancel_bundle', { id: made.id, confirm: true });
  const after = await good(c, 'send_for_signature', other);
  expect(after.data.existing).toBe(true);
  expect(after.prose).toBe(
    `Bundle ${made.id} already exists for this request (the same custom_key) and is Cancelled: nothing was created or sent now. To send again, give a new custom_key.`,
  );
}

describe('the agent scenario, default tool set', () => {
  it('over stdio (esign mcp, the local engine, a file path)', async () => {
    await scenario(stdio);
  }, 120_000);

  it("over HTTP (esign serve's /mcp: base64, links, nothing of the server's disk)", async () => {
    await scenario(http);
    const r = await call(http, 'send_for_signature', { signers, documents: [{ path: '/etc/hostname' }] });
    expect(r.isError).toBe(true);
    expect(r.prose).toMatch(/^Refused by the API: 400 invalid/);
    expect(JSON.stringify(r.data)).toMatch(/documents\[0\]\.path|path/);
    // No answer named a path of the server's machine: its data directory, its working directory.
    expect(overHttp.length).toBeGreaterThan(15);
    for (const text of overHttp) {
      expect(text).not.toContain(join(data.dir, 'served'));
      expect(text).not.toContain(process.cwd());
    }
  }, 120_000);
});
