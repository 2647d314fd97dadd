// The one table of API operations: every row names a real port method, its arguments match its path,
// its schemas exist, and its marks (effect, idempotent, reaches people) hold what the operation does.
import { describe, expect, test } from 'vitest';
import { RemoteService } from '../../src/remote/remote.js';
import { OPERATIONS, operationNamed, requestSchemas } from '../../src/service/operations.js';
import { RESPONSE_SCHEMAS } from '../../src/service/responseSchemas.js';

/** Port members that are not API operations: the backend's own plumbing. */
const NOT_OPERATIONS = new Set(['openFileLink', 'close', 'capabilities', 'http']);

describe('the operations table', () => {
  test('every API method of the port has exactly one row, and every row names a port method', () => {
    const remote = new RemoteService({ baseUrl: 'http://127.0.0.1:9/api/v2' });
    const methods = Object.keys(remote).filter((k) => !NOT_OPERATIONS.has(k) && typeof (remote as never)[k] === 'function');
    methods.push('createBundle');
    const names = OPERATIONS.map((o) => o.name);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual([...new Set(methods)].sort());
    void remote.close();
  });

  test('path parameters and arguments agree; lists are paged with page/per_page', () => {
    for (const op of OPERATIONS) {
      const inPath = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const pathArgs = op.args.flatMap((a) => (a.in === 'path' ? [a.name] : []));
      expect(pathArgs, op.name).toEqual(inPath);
      for (const alias of op.aliases ?? []) expect([...alias.matchAll(/\{(\w+)\}/g)].map((m) => m[1]), op.name).toEqual(inPath);
      expect(op.path, op.name).toMatch(/^\/[a-z_/{}-]+\/$/);
      if (op.paged) {
        expect(op.method, op.name).toBe('GET');
        expect(op.query?.map((p) => p.name).slice(0, 2), op.name).toEqual(['page', 'per_page']);
        expect(op.reply, op.name).toHaveProperty('page');
      }
      for (const a of op.args) if (a.in === 'query' && 'name' in a) expect(op.query?.map((p) => p.name), op.name).toContain(a.name);
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
    const reaching = OPERATIONS.filter((o) => o.reachesPeople).map((o) => o.name).sort();
    expect(reaching).toEqual([
      'createBundle', 'createBundleFromEnvelopeTemplate', 'declinePacket', 'reassignPacket', 'remindPacket',
      'replacePerson', 'sendBundle', 'signPacket', 'updatePacket', 'updatePerson',
    ]);
    for (const name of ['verify', 'getRateLimit']) expect(operationNamed(name)!.effect).toBe('read');
    expect(operationNamed('verify')!.public).toBe(true);
    expect(OPERATIONS.filter((o) => o.public).map((o) => o.name)).toEqual(['verify']);
    expect(OPERATIONS.filter((o) => o.group === 'sandbox').map((o) => o.name).sort()).toEqual([
      'declinePacket', 'reassignPacket', 'resendWebhookEvent', 'signPacket', 'triggerWebhookEvent', 'viewPacket',
    ]);
  });
});
