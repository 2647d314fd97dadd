// One search rule for both doors (app/bundleSearch.ts): the console's search box (raw HTTP, a
// session cookie) and `esign bundle list --search` (on the local engine and over HTTP to esign serve)
// find the same Bundles for the same text, a packet id included.
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleHandle, registerConsole } from '../../src/server/console/index.js';
import type { Bundle } from '../../src/service/types.js';
import { esignIn } from '../cli/inProcess.js';
import { localEnv, remoteEnv, type ServedEngine, serveEngine } from '../engineServer.js';
import { bundleRequest, newEngine } from '../helpers.js';

let engine: ReturnType<typeof newEngine>;
let app: FastifyInstance;
let base: string;
let handle: ConsoleHandle;
let served: ServedEngine;
let cookie = '';
const made: Record<string, Bundle> = {};

beforeAll(async () => {
  engine = newEngine();
  const make = async (name: string, over: Record<string, unknown>) => {
    made[name] = await engine.createBundle(bundleRequest(over));
  };
  await make('falcon', {
    label: 'Falcon lease Ünïcode',
    custom_key: 'PO-7781',
    packets: [{ key: 'j', name: 'José Núñez', email: 'jose.nunez@northwind.example.com' }],
  });
  await make('phone', {
    label: 'Phone signer',
    packets: [{ key: 'p', name: 'Kai Moreno', phone: '+15055550101', deliver_via: 'phone' }],
  });
  await make('other', { label: 'Unrelated', packets: [{ key: 'o', name: 'Ola Berg', email: 'ola@example.com' }] });
  await engine.cancelBundle(made.other!.id);
  await engine.settle();
  app = Fastify();
  handle = await registerConsole(app, { service: engine, readOnly: true, backend: 'the local engine' });
  base = await app.listen({ host: '127.0.0.1', port: 0 });
  const res = await fetch(`${base}${handle.signInPath()}`, { redirect: 'manual' });
  cookie = res.headers.get('set-cookie')!.split(';')[0]!;
  served = await serveEngine(engine);
}, 60_000);
afterAll(async () => {
  await app?.close();
  await served?.close();
  await engine?.dispose();
});

/** The Bundles the console finds for `q`: its result rows' links, or the one Bundle it leads to. */
async function consoleFinds(q: string): Promise<string[]> {
  const res = await fetch(`${base}/console/?q=${encodeURIComponent(q)}`, { headers: { cookie }, redirect: 'manual' });
  if (res.status === 303)
    return [decodeURIComponent(/\/console\/bundles\/([^/?]+)$/.exec(res.headers.get('location')!)![1]!)];
  expect(res.status).toBe(200);
  const html = await res.text();
  const results = html.slice(html.indexOf('id="results-h"'));
  return [...new Set([...results.matchAll(/href="\/console\/bundles\/([^"/?]+)"/g)].map((m) => m[1]!))].sort();
}

/** The Bundles `esign bundle list --search` finds, with `env` choosing the backend. */
async function cliFinds(q: string, env: Record<string, string>): Promise<string[]> {
  const r = await esignIn(['bundle', 'list', '--search', q, '--all', '--json'], { env });
  expect(r.exitCode, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as Bundle[]).map((b) => b.id).sort();
}

const ids = (...names: string[]) => names.map((n) => made[n]!.id).sort();

describe('the same Bundles for the same text, whichever door', () => {
  const cases: [string, () => string, string[]][] = [
    ['a slug', () => made.falcon!.id, ['falcon']],
    ['a label word, any case', () => 'FALCON', ['falcon']],
    ['a label word without its accents', () => 'unicode', ['falcon']],
    ['a custom_key', () => 'PO-7781', ['falcon']],
    ["a signer's accented name, typed plain", () => 'jose nunez', ['falcon']],
    ['an email part', () => 'northwind.example', ['falcon']],
    ['a phone as people type it', () => '(505) 555-0101', ['phone']],
    ['a cancelled Bundle', () => 'Unrelated', ['other']],
    ['spaces around the text', () => '   Falcon   ', ['falcon']],
    ['a packet id', () => made.phone!.packets[0]!.id, ['phone']],
    ['nothing', () => 'zzzz-no-such-thing', []],
  ];
  it.each(cases)('%s', async (_what, text, expected) => {
    const q = text();
    const want = ids(...expected);
    expect(await consoleFinds(q), 'console').toEqual(want);
    expect(await cliFinds(q, localEnv(engine.dataDir)), 'CLI, local engine').toEqual(want);
    expect(await cliFinds(q, remoteEnv(served.origin, served.key)), 'CLI, esign serve').toEqual(want);
  });
});
