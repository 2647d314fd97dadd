// The one table of API operations: every row names a real port method, its arguments match its path,
// its schemas exist, and its marks (effect, idempotent, reaches people) hold what the operation does.
import { readFileSync, readdirSync } from 'node:fs';
import { join, sep } from 'node:path';
import { describe, expect, test } from 'vitest';
import { RemoteService } from '../../src/remote/remote.js';
import { OPENAPI_PATH, OPERATIONS, operationNamed, requestSchemas } from '../../src/service/operations.js';
import { operationAt } from '../../src/service/operationTable.js';
import { RESPONSE_SCHEMAS } from '../../src/domain/responseSchemas.js';
import { newEngine } from '../helpers.js';

describe('the operations table', () => {
  test('every row is a method of both backends; the remote adapter has them from the table itself', async () => {
    const names = OPERATIONS.map((o) => o.name);
    expect(new Set(names).size).toBe(names.length);
    const engine = newEngine();
    const remote = new RemoteService({ baseUrl: 'http://127.0.0.1:9/api/v2' });
    try {
      for (const name of names) {
        expect(typeof (engine as never)[name], `engine.${name}`).toBe('function');
        expect(typeof (remote as never)[name], `remote.${name}`).toBe('function');
      }
    } finally {
      await engine.dispose();
      await remote.close();
    }
  });

  test('path parameters and arguments agree; lists are paged with page/per_page', () => {
    for (const op of OPERATIONS) {
      const inPath = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const pathArgs = op.args.flatMap((a) => (a.in === 'path' ? [a.name] : []));
      expect(pathArgs, op.name).toEqual(inPath);
      for (const alias of op.aliases ?? [])
        expect(
          [...alias.matchAll(/\{(\w+)\}/g)].map((m) => m[1]),
          op.name,
        ).toEqual(inPath);
      expect(op.path, op.name).toMatch(/^\/[a-z_/{}-]+\/$/);
      if (op.paged) {
        expect(op.method, op.name).toBe('GET');
        expect(op.query?.map((p) => p.name).slice(0, 2), op.name).toEqual(['page', 'per_page']);
        expect(op.reply, op.name).toHaveProperty('page');
      }
      for (const a of op.args)
        if (a.in === 'query' && 'name' in a)
          expect(
            op.query?.map((p) => p.name),
            op.name,
          ).toContain(a.name);
      if (op.fromRoot) expect(op.group, op.name).toBe('sandbox');
    }
  });

  test('request and response schemas exist; a body member argument belongs to its schema', () => {
    const schemas = requestSchemas();
    for (const op of OPERATIONS) {
      const r = op.reply as Record<string, unknown>;
      const reply = (r.one ?? r.array ?? r.page) as string | undefined;
      if (reply) expect(RESPONSE_SCHEMAS, op.name).toHaveProperty(reply);
      for (const n of op.bodyNames ?? []) expect(schemas, op.name).toHaveProperty(n);
      expect(!!op.body, op.name).toBe(!!op.bodyNames?.length);
      const takesBody = op.args.some((a) => a.in === 'body');
      if (op.bodyNames) expect(takesBody, op.name).toBe(true);
    }
    // The create accepts either request: a union of both.
    expect(operationNamed('createBundle')!.body).not.toBe(schemas.BundleRequest);
    expect(operationNamed('nope')).toBeUndefined();
  });

  test('marks: reads change nothing, GETs are reads, what sends to people says so', () => {
    for (const op of OPERATIONS) {
      if (op.method === 'GET') expect(op.effect, op.name).toBe('read');
      if (op.effect === 'read' || op.effect === 'destroy') expect(op.idempotent, op.name).toBe(true);
      if (op.effect === 'read') expect(op.reachesPeople, op.name).toBe(false);
    }
    const reaching = OPERATIONS.filter((o) => o.reachesPeople)
      .map((o) => o.name)
      .sort();
    expect(reaching).toEqual([
      'advanceClock',
      'createBundle',
      'createBundleFromEnvelopeTemplate',
      'declinePacket',
      'reassignPacket',
      'remindPacket',
      'replacePerson',
      'sendBundle',
      'signPacket',
      'updatePacket',
      'updatePerson',
    ]);
    for (const name of ['verify', 'getRateLimit']) expect(operationNamed(name)!.effect).toBe('read');
    expect(operationNamed('verify')!.public).toBe(true);
    expect(OPERATIONS.filter((o) => o.public).map((o) => o.name)).toEqual(['verify']);
    expect(
      OPERATIONS.filter((o) => o.group === 'sandbox')
        .map((o) => o.name)
        .sort(),
    ).toEqual([
      'accountFacts',
      'advanceClock',
      'declinePacket',
      'describeSandbox',
      'getClock',
      'listOutbox',
      'reassignPacket',
      'resendWebhookEvent',
      'resetClock',
      'setupAccount',
      'setupEnvelopeTemplate',
      'setupTemplate',
      'signPacket',
      'triggerWebhookEvent',
      'viewPacket',
    ]);
    // A sandbox's fixtures: only within a sandbox (a 403 on a server's own account).
    expect(OPERATIONS.filter((o) => o.fixture).every((o) => o.group === 'sandbox' && o.fromRoot)).toBe(true);
  });
});

/** Every .ts file under src/, with its text. */
function sources(dir = join(import.meta.dirname, '..', '..', 'src')): [string, string][] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f))
    .map((f) => [f.split(sep).join('/'), readFileSync(join(dir, f), 'utf8')]);
}

/** The code of a file without its comments (a comment may name a path; only code routes one). */
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');

/**
 * A route path as code writes it: in quotes, after `${...}` or a regex anchor, with each parameter as
 * `{name}`, `:name` or a `${...}` interpolation; escaped slashes count as slashes.
 */
function pathPattern(path: string): RegExp {
  const parts = path.split(/\{\w+\}/).map((p) => p.replace(/[.*+?^$()|[\]\\]/g, '\\$&'));
  const param = '(?:\\{\\w+\\}|:\\w+|\\$\\{[^}]*\\})';
  // After an interpolation it is a route unless that is the console's own page prefix (its pages may
  // share a path's shape: /console/bundles/{slug} is a page, not the API).
  return new RegExp(`(?:['"\`^]|(?<!\\$\\{CONSOLE_PREFIX)\\})${parts.join(param)}(?=['"\`?$]|\\$\\{)`);
}

describe('route paths live in one file', () => {
  test('no file in src/ but the table writes a path of an operation', () => {
    const paths = OPERATIONS.flatMap((op) => [op.path, ...(op.aliases ?? [])]);
    // The sandbox's paths are also caught written after a prefix constant (`${SANDBOX}/packets/:id/sign/`).
    // (The sandbox's own root, /sandbox/, leaves just "/" after its prefix: it is checked whole above.)
    paths.push(
      ...OPERATIONS.filter((op) => op.fromRoot)
        .map((op) => op.path.replace(/^\/\w+/, ''))
        .filter((rest) => rest !== '/'),
    );
    paths.push(OPENAPI_PATH);
    const found: string[] = [];
    for (const [file, text] of sources()) {
      if (file === 'service/operationTable.ts') continue;
      const code = withoutComments(text).replace(/\\\//g, '/');
      for (const path of paths) if (pathPattern(path).test(code)) found.push(`${file}: ${path}`);
    }
    expect(found).toEqual([]);
  });

  test('the check finds a path written the ways code writes one', () => {
    const p = pathPattern('/bundles/{slug}/cancel/');
    for (const written of [
      "'/bundles/:slug/cancel/'",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: source text, as code writes a path
      '`/bundles/${enc(slug)}/cancel/`',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: source text, as code writes a path
      '`${API}/bundles/{slug}/cancel/`',
    ])
      expect(p.test(written), written).toBe(true);
    expect(p.test('GET /bundles/x/cancel/ in a comment')).toBe(false);
    expect(pathPattern('/sandbox/packets/{id}/sign/').test('/^/sandbox/packets/:id/sign/$/')).toBe(true);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: source text, as code writes a page path
    expect(pathPattern('/bundles/').test('`${CONSOLE_PREFIX}/bundles/${slug}`')).toBe(false);
    expect(p.test(withoutComments("/** `/bundles/:slug/cancel/` */\n// '/bundles/:slug/cancel/'"))).toBe(false);
    expect(p.test(withoutComments("const u = 'http://x' + '/bundles/:slug/cancel/';"))).toBe(true);
  });
});

describe('operationAt: the operation a request stands for', () => {
  test('fixed paths before parameters, aliases, the sandbox from the root, parameters decoded', () => {
    const at = (method: string, path: string) => {
      const found = operationAt(method, path);
      return found && [found.row.name, found.params];
    };
    expect(at('GET', '/webhooks/events/')).toEqual(['listWebhookEvents', {}]);
    expect(at('GET', '/webhooks/w1/')).toEqual(['getWebhook', { id: 'w1' }]);
    expect(at('post', '/bundles/create_preparation_session')).toEqual(['createBundlePreparationSession', {}]);
    expect(at('POST', '/bundles/a%20b/send/')).toEqual(['sendBundle', { slug: 'a b' }]);
    expect(at('POST', '/sandbox/packets/p1/sign/')).toEqual(['signPacket', { id: 'p1' }]);
    expect(at('PUT', '/bundles/x/send/')).toBeUndefined();
    expect(at('GET', '/no/such/')).toBeUndefined();
  });
});
