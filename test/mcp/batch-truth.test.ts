// send_batch says what it does (issue 48): its dry run reports exactly what a send would do (rows
// sent before, rows whose custom_key a Bundle already has, rows it would create), read from the same
// journal and the same earlier runs, and writes nothing; a CSV text edited and sent again without a
// csv_name continues its batch (rows sent are never sent again), and an edit that cannot be told from
// a new list is refused with the choices in the tool's words; it is marked as what it is (it adds
// Bundles and tags only those: not destructive). Each held as a client does it: the SDK's client
// over stdio (bin/esign.js mcp) and raw JSON-RPC over a spawned esign serve's /mcp.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_NOTE } from '../../src/mcp/answer.js';
import { startServe, type ServeProcess } from '../cli/serveProcess.js';
import { CONTRACT_B64, programEnv, tempDir } from '../helpers.js';
import { type Connected, call, type Seeded, seed, stdioClient } from './support.js';

type Data = Record<string, unknown>;
interface Answer {
  isError: boolean;
  prose: string;
  data: Data;
}
interface Door {
  call(name: string, args: Data): Promise<Answer>;
  annotations(name: string): Promise<unknown>;
  /** Where this door keeps batch journals (and the CSV texts it sends). */
  journals: string;
}

const NDA = (custom_key?: string) => ({
  label: 'NDA for {{name}}',
  email_subject: 'Please sign the NDA',
  packets: [{ key: 'signer', name: '{{name}}', email: '{{email}}' }],
  documents: [{ key: 'nda', file_b64: CONTRACT_B64 }],
  tags: ['nda-batch'],
  ...(custom_key ? { custom_key } : {}),
});
const person = (n: number) => `Person ${n},person${n}@example.com`;
const csvOf = (rows: string[]) => `name,email\n${rows.join('\n')}\n`;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => person(from + i));

/** Every file under `dir` (none when it does not exist). */
function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
  } catch {
    return [];
  }
}

const data = tempDir('esign-mcp-batch-truth-');
const doors: Record<'stdio' | 'http', Door> = {} as never;
let stdio: Connected;
let serve: ServeProcess;
let seeded: Seeded;

beforeAll(async () => {
  const local = join(data.dir, 'local');
  const served = join(data.dir, 'served');
  await seed(local);
  seeded = await seed(served);
  stdio = await stdioClient({ ESIGN_DATA_DIR: local });
  serve = await startServe({ ...programEnv(), ESIGN_DATA_DIR: served });
  doors.stdio = {
    call: async (name, args) => {
      const r = await call(stdio, name, args);
      return { isError: r.isError, prose: r.prose, data: r.data };
    },
    annotations: async (name) => stdio.tools.get(name)?.annotations,
    journals: join(local, 'batches'),
  };
  const rpc = async (method: string, params: Data) => {
    const r = await fetch(`${serve.address}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Token ${seeded.key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    expect(r.status).toBe(200);
    const text = await r.text();
    // A long tool answers as a stream: its last data event is the result.
    const json = text.startsWith('{')
      ? text
      : text
          .split('\n')
          .filter((l) => l.startsWith('data: '))
          .at(-1)!
          .slice(6);
    return JSON.parse(json).result as Data;
  };
  doors.http = {
    call: async (name, args) => {
      const result = await rpc('tools/call', { name, arguments: args });
      const text = (result.content as { type: string; text: string }[]).find((c) => c.type === 'text')!.text;
      const [prose, json] = text.split(`\n\n${DATA_NOTE}\n`);
      return { isError: result.isError === true, prose: prose!, data: JSON.parse(json!) };
    },
    annotations: async (name) =>
      ((await rpc('tools/list', {})).tools as { name: string; annotations: unknown }[]).find((t) => t.name === name)
        ?.annotations,
    journals: join(served, 'batches'),
  };
}, 60_000);
afterAll(async () => {
  await stdio?.client.close();
  await serve?.stop();
  data.cleanup();
});

/** A call that must succeed: its data. */
async function ok(door: Door, name: string, args: Data): Promise<Data> {
  const r = await door.call(name, args);
  expect(r.isError, `${name}: ${r.prose}`).toBe(false);
  return r.data;
}

/** The dry run, then the send of the same arguments: the send did what the dry run said, and wrote nothing before. */
async function dryRunThenSend(door: Door, args: Data) {
  const before = filesUnder(door.journals);
  const dry = await ok(door, 'send_batch', { ...args, dry_run: true });
  expect(filesUnder(door.journals), 'a dry run writes nothing').toEqual(before);
  expect(dry.outcome).toBe('checked');
  const sent = await ok(door, 'send_batch', { ...args, confirm: true });
  expect(sent.outcome).toBe('done');
  expect({ created: sent.created, skipped: sent.skipped, exists: sent.exists, failed: sent.failed }).toEqual({
    created: dry.would_create,
    skipped: dry.skipped,
    exists: dry.exists,
    failed: dry.invalid,
  });
  return { dry, sent };
}

const total = async (door: Door, args: Data = {}) => (await ok(door, 'find_bundles', args)).total;

describe.each(['stdio', 'http'] as const)('send_batch over %s', (name) => {
  it('is marked as what it does: it adds Bundles (and tags only those), reaches people, is not read-only', async () => {
    expect(await doors[name].annotations('send_batch')).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    });
  });

  it('a dry run says what the send then does: rows sent before by an earlier text, rows that exist, rows to create', async () => {
    const door = doors[name];
    const first = await dryRunThenSend(door, { csv: csvOf(range(1, 5)), spec: NDA() });
    expect(first.dry).toMatchObject({ rows: 5, skipped: 0, exists: 0, would_create: 5, invalid: 0 });
    expect(first.dry.batch).toBe(first.sent.batch);

    // The text edited (two people more, first) and sent again without a name: its batch goes on.
    const edited = await dryRunThenSend(door, { csv: csvOf([...range(6, 7), ...range(1, 5)]), spec: NDA() });
    expect(edited.dry).toMatchObject({ rows: 7, skipped: 5, exists: 0, would_create: 2 });
    expect(edited.dry.batch).toBe(edited.sent.batch);
    expect(edited.dry.batch).not.toBe(first.dry.batch);
    expect(await total(door)).toBe(7);

    // Rows keyed by their own custom_key: a Bundle already made with row 3's key exists; the rest are created.
    const made = await ok(door, 'send_for_signature', {
      label: 'NDA for Person 3, sent by hand',
      signers: [{ name: 'Person 3', email: 'person3@example.com' }],
      documents: [{ base64: CONTRACT_B64 }],
      custom_key: 'nda-person3@example.com',
      confirm: true,
    });
    const keyed = await dryRunThenSend(door, { csv: csvOf(range(1, 4)), spec: NDA('nda-{{email}}') });
    expect(keyed.dry).toMatchObject({ rows: 4, skipped: 0, exists: 1, would_create: 3 });
    const more = await dryRunThenSend(door, { csv: csvOf(range(1, 5)), spec: NDA('nda-{{email}}') });
    expect(more.dry).toMatchObject({ rows: 5, exists: 4, would_create: 1 });
    expect(await total(door)).toBe(7 + 1 + 3 + 1);
    // The batch tagged the Bundles it made, and only those: the one made by hand is as it was.
    expect(await total(door, { tag: 'nda-batch' })).toBe(7 + 3 + 1);
    const story = await ok(door, 'bundle_story', { id: (made.bundle as { id: string }).id });
    expect((story.bundle as { tags: string[] }).tags).toEqual([]);
  }, 120_000);

  it('an edited text that cannot be told from a new list is refused, dry run and send alike, naming the choices', async () => {
    const door = doors[name];
    const before = await total(door);
    // Person 2's address changed and Person 8 added: a sent row's values are gone while new ones appear.
    const rows = [...range(1, 7), person(8)].map((r) => r.replace('person2@', 'person2b@'));
    for (const extra of [{ dry_run: true }, { confirm: true }]) {
      const r = await door.call('send_batch', { csv: csvOf(rows), spec: NDA(), ...extra });
      expect(r.isError, JSON.stringify(extra)).toBe(true);
      expect(r.prose).toMatch(/^Nothing was sent/);
      expect((r.data.error as { message: string }).message).toMatch(
        /^The CSV text has changed since batch \w+ sent from it: row 2 .*as sent holds values no row has now, and rows 2, .*8 hold values never sent.* Nothing was sent\. To send them, if it is another list, call again with new_batch: true/,
      );
      // Over either door, no path of the machine that keeps the batch (the CSV kept, the journal).
      expect(JSON.stringify(r.data)).not.toContain(data.dir);
    }
    expect(await total(door)).toBe(before);
  }, 60_000);
});
