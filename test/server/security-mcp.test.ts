// Issue 36 items 4 and 7 at esign serve's /mcp, in raw JSON-RPC (the protocol, not a client's
// reading of it, so the tests hold whatever the tools become): each call of a JSON-RPC batch counts
// against the key's rate limit, get_rate_limit reports the counter GET /rate_limit/ reports,
// tools/call without a name is -32602 in words, and reassign_packet is destructive (confirm).
// All fail on fbda499.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleRequest } from '../helpers.js';
import { type SecureServer, startServer } from './securityServer.js';

let srv: SecureServer;
beforeAll(async () => {
  srv = await startServer({ rateLimits: { limit: 10, createLimit: 10, windowSeconds: 3600 } });
});
afterAll(async () => srv.close());

interface RpcAnswer {
  status: number;
  body: unknown;
}

/** One POST to /mcp: a JSON-RPC message or a batch of them (`path` /mcp?tools=all: a tool per operation). */
async function rpc(message: unknown, key = srv.key, path = '/mcp'): Promise<RpcAnswer> {
  const res = await fetch(`${srv.origin}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Token ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify(message),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** The tool set of one tool per operation, where get_rate_limit and reassign_packet keep their names. */
const ALL = '/mcp?tools=all';

let id = 0;
const toolCall = (name: string | undefined, args?: unknown) => ({
  jsonrpc: '2.0',
  id: ++id,
  method: 'tools/call',
  params: { ...(name !== undefined ? { name } : {}), ...(args !== undefined ? { arguments: args } : {}) },
});
const remaining = async () =>
  ((await (await srv.call('/api/v2/rate_limit/')).json()) as { remaining: number }).remaining;
/** A fresh key: a window of its own. */
const freshKey = () => srv.engine.keys.create(`k${++id}`).key;

describe('/mcp and the rate limit', () => {
  it('counts each call of a JSON-RPC batch: a batch past what is left is a 429 and runs nothing', async () => {
    const key = freshKey();
    const five = await rpc(
      Array.from({ length: 5 }, () => toolCall('list_bundles', {})),
      key,
    );
    expect(five.status).toBe(200);
    expect(five.body).toHaveLength(5);
    const status = await fetch(`${srv.origin}/api/v2/rate_limit/`, { headers: { authorization: `Token ${key}` } });
    expect(((await status.json()) as { remaining: number }).remaining).toBe(5);
    // 6 calls with 5 left: refused whole (fbda499 ran 1,000 in one batch with a limit of 10).
    const six = await rpc(
      Array.from({ length: 6 }, () => toolCall('list_bundles', {})),
      key,
    );
    expect(six.status).toBe(429);
    const again = await fetch(`${srv.origin}/api/v2/rate_limit/`, { headers: { authorization: `Token ${key}` } });
    expect(((await again.json()) as { remaining: number }).remaining).toBe(4);
  });

  it('get_rate_limit reports the counter GET /rate_limit/ reports', async () => {
    const before = await remaining();
    const r = (await rpc(toolCall('get_rate_limit', {}), srv.key, ALL)).body as {
      result: { structuredContent: { remaining: number; limit: number } };
    };
    // The tools/call itself took one; the GET above took none.
    expect(r.result.structuredContent).toMatchObject({ limit: 10, remaining: before - 1 });
    expect(await remaining()).toBe(before - 1);
  });
});

describe('/mcp refuses bad calls in words', () => {
  it('tools/call without a name, or with arguments that are not an object, is -32602 saying so', async () => {
    const key = freshKey();
    const noName = (await rpc(toolCall(undefined, {}), key)).body as { error: { code: number; message: string } };
    expect(noName.error.code).toBe(-32602);
    expect(noName.error.message).toBe('tools/call needs params.name: the name of a tool (tools/list names them).');
    const badArgs = (await rpc(toolCall('list_bundles', [1, 2]), key)).body as {
      error: { code: number; message: string };
    };
    expect(badArgs.error).toEqual({
      code: -32602,
      message: 'params.arguments of tools/call must be an object (the arguments of list_bundles).',
    });
    const unknown = (await rpc(toolCall('no_such_tool', {}), key)).body as { error: { code: number; message: string } };
    expect(unknown.error.code).toBe(-32602);
  });

  it('reassign_packet is marked destructive and replaces no signer without confirm', async () => {
    const key = freshKey();
    const list = (await rpc({ jsonrpc: '2.0', id: ++id, method: 'tools/list' }, key, ALL)).body as {
      result: { tools: { name: string; annotations: { destructiveHint: boolean } }[] };
    };
    expect(list.result.tools.find((t) => t.name === 'reassign_packet')?.annotations.destructiveHint).toBe(true);
    const b = await srv.engine.createBundle(bundleRequest({ allow_signer_reassign: true }));
    const packet = b.packets[0]!.id;
    const args = { id: packet, body: { name: 'Bea Deputy', email: 'bea@example.com' } };
    const unconfirmed = (await rpc(toolCall('reassign_packet', args), key, ALL)).body as {
      result: { isError: boolean; content: { text: string }[] };
    };
    expect(unconfirmed.result.isError).toBe(true);
    // A tool error carries its data as the last line of its text.
    const data = JSON.parse(unconfirmed.result.content[0]!.text.split('\n').at(-1)!) as { error: { refused: string } };
    expect(data.error.refused).toBe('confirm');
    expect((await srv.engine.getPacket(packet)).status).not.toBe('ra');
    const confirmed = (await rpc(toolCall('reassign_packet', { ...args, confirm: true }), key, ALL)).body as {
      result: { isError?: boolean };
    };
    expect(confirmed.result.isError).toBeFalsy();
    expect((await srv.engine.getPacket(packet)).status).toBe('ra');
  });
});
