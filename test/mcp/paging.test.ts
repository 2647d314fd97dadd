// No answer over 25,000 characters: a page that would not fit is cut, says how many were left out,
// and its next_cursor goes on exactly where it stopped (nothing skipped, nothing twice); one object
// too large for an answer is refused with words on how to ask for less. In memory, on the engine.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ANSWER_CHARS } from '../../src/mcp/answer.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { CONTRACT_B64, newEngine } from '../helpers.js';
import { type Connected, call } from './support.js';

let engine: ReturnType<typeof newEngine>;
let c: Connected;
const COUNT = 40;

beforeAll(async () => {
  engine = newEngine();
  for (let i = 0; i < COUNT; i++)
    await engine.createBundle({
      label: `${String(i).padStart(2, '0')} ${'L'.repeat(190)}`,
      email_message: 'M'.repeat(3000),
      packets: [{ key: 'a', name: 'N'.repeat(80), email: 'ada@example.com' }],
      documents: [{ key: 'd', file_b64: CONTRACT_B64 }],
      status: 'dr',
    });
  const server = createMcpServer({ service: engine, fileAccess: true });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'paging', version: '1' });
  await client.connect(b);
  const { tools } = await client.listTools();
  c = { client, tools: new Map(tools.map((t) => [t.name, t])), set: 'default', fileAccess: true };
}, 60_000);
afterAll(async () => {
  await c?.client.close();
  await engine?.dispose();
});

describe('answers within the limit', () => {
  it('cuts a page that would not fit, says so, and goes on from where it stopped', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let cut = false;
    for (let n = 0; n < 20; n++) {
      const r = await call(c, 'find_bundles', {
        response_format: 'detailed',
        page_size: 50,
        ...(cursor ? { cursor } : {}),
      });
      expect(JSON.stringify(r.result).length).toBeLessThanOrEqual(MAX_ANSWER_CHARS);
      const shown = r.data.bundles as { label: string }[];
      if (shown.length < Math.min(50, COUNT - seen.length)) {
        cut = true;
        expect(r.prose).toMatch(
          /more of this page left out to stay under the answer limit\). Next: the same call with cursor: "\d+"\./,
        );
      }
      seen.push(...shown.map((b) => b.label.slice(0, 2)));
      cursor = (r.data.next_cursor as string | null) ?? undefined;
      if (!cursor) break;
    }
    expect(cut, 'a page of 50 detailed Bundles does not fit').toBe(true);
    expect(seen).toEqual(Array.from({ length: COUNT }, (_, i) => String(COUNT - 1 - i).padStart(2, '0')));
  });

  it('refuses one object too large for an answer, saying how to ask for less', async () => {
    const big = await engine.createBundle({
      label: 'Big',
      email_message: 'M'.repeat(4000),
      packets: Array.from({ length: 60 }, (_, i) => ({
        key: `s${i}`,
        name: 'N'.repeat(80),
        email: `s${i}@example.com`,
      })),
      documents: [{ key: 'd', file_b64: CONTRACT_B64 }],
      status: 'dr',
    });
    const r = await call(c, 'call_operation', { operation: 'get_bundle', arguments: { id: big.id } });
    expect(r.isError).toBe(true);
    expect(r.prose).toMatch(
      /^The answer would be \d+ characters, over the limit of 25000: nothing is shown\. Ask for less: /,
    );
    expect(JSON.stringify(r.result).length).toBeLessThanOrEqual(MAX_ANSWER_CHARS);
    // The story of the same Bundle pages its timeline and fits.
    const story = await call(c, 'bundle_story', { id: big.id });
    expect(story.isError).toBe(false);
  });
});
