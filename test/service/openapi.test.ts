// The OpenAPI document: valid OpenAPI 3.1 by a real validator, and exactly the routes `esign serve` has.
import { compileErrors, validate } from '@readme/openapi-parser';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildServer } from '../../src/server/app.js';
import { API_ROOT } from '../../src/service/operationTable.js';
import { documentedOperations, openApiDocument, requestJsonSchema, requestSchemas } from '../../src/service/openapi.js';
import { OPENAPI_PATH } from '../../src/service/operations.js';
import { UNSTATED_TEXT_MAX } from '../../src/domain/schemas.js';
import { newEngine } from '../helpers.js';

let engine: ReturnType<typeof newEngine>;
let app: FastifyInstance;

beforeAll(async () => {
  engine = newEngine();
  app = await buildServer({ service: engine, local: engine, authenticate: () => undefined });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await engine.dispose();
});

/** [method, path] of every route under /api/v2, read from fastify's own route tree. */
function serverRoutes(): [string, string][] {
  const stack: string[] = [];
  const out: [string, string][] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([│├└─ ]*)(\S.*?) \(([A-Z, ]+)\)$/.exec(line);
    if (!m) continue;
    const depth = m[1].length / 4;
    stack.length = depth;
    stack[depth] = m[2];
    const path = stack.join('');
    if (!path.startsWith(API_ROOT)) continue;
    for (const method of m[3].split(', ')) if (method !== 'HEAD') out.push([method, path]);
  }
  return out;
}

const norm = (path: string) => path.replace(/\/$/, '').replace(/\{(\w+)\}/g, ':$1');

describe('OpenAPI document', () => {
  test('is valid OpenAPI 3.1', async () => {
    const doc = structuredClone(openApiDocument());
    const result = await validate(doc as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
  });

  test('names each operation as the table does (call, esign scenario ops), each name once', () => {
    const ids = Object.values(openApiDocument().paths as Record<string, Record<string, { operationId: string }>>)
      .flatMap((methods) => Object.values(methods))
      .map((o) => o.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const d of documentedOperations())
      expect(d.operationId).toBe(d.summary.endsWith('(older path)') ? `${d.op.name}_older_path` : d.op.name);
    expect(ids).toContain('getBundleData');
  });

  test('documents every route of the server and nothing else (405 fallbacks are not operations)', async () => {
    const routed = new Set<string>();
    for (const [method, path] of serverRoutes()) {
      // An unauthenticated call tells a real route (401, or a public one's 4xx/200) from a 405 fallback.
      const url = path.replace(/:\w+/g, 'x');
      const res = await app.inject({ method: method as 'GET', url });
      if (res.statusCode !== 405) routed.add(`${method} ${path}`);
    }
    const documented = new Set(documentedOperations().map((d) => `${d.op.method} ${API_ROOT}${norm(d.path)}`));
    documented.add(`GET ${API_ROOT}${OPENAPI_PATH}`);
    expect([...routed].sort()).toEqual([...documented].sort());
    expect(routed.size).toBeGreaterThan(50);
    const doc = openApiDocument() as { paths: Record<string, Record<string, unknown>> };
    const inDoc = Object.entries(doc.paths).flatMap(([p, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${API_ROOT}${norm(p)}`),
    );
    expect(inDoc.sort()).toEqual([...documented].sort());
  });

  test('bodies, responses, errors and the pagination header come from the schemas', () => {
    // biome-ignore lint/suspicious/noExplicitAny: the test walks the document freely
    const doc = openApiDocument() as any;
    const create = doc.paths['/bundles/'].post;
    expect(create.requestBody.content['application/json'].schema.oneOf).toEqual([
      { $ref: '#/components/schemas/BundleRequest' },
      { $ref: '#/components/schemas/BundleTemplateRequest' },
    ]);
    expect(create.responses['401'].content['application/json'].schema.oneOf[0]).toEqual({
      $ref: '#/components/schemas/Error',
    });
    const list = doc.paths['/bundles/'].get.responses['200'];
    expect(list.headers['X-Blueink-Pagination']).toEqual({ $ref: '#/components/headers/Pagination' });
    expect(list.content['application/json'].schema).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/Bundle' },
    });
    // Every request schema of schemas.ts is a component, nested ones by reference.
    for (const name of Object.keys(requestSchemas())) expect(doc.components.schemas[name], name).toBeDefined();
    const bundleRequest = doc.components.schemas.BundleRequest;
    expect(bundleRequest.properties.packets.items).toEqual({ $ref: '#/components/schemas/PacketRequest' });
    expect(bundleRequest.required).toEqual(['packets']);
    expect(doc.components.schemas.PacketRequest.properties.name.maxLength).toBe(UNSTATED_TEXT_MAX);
    expect(doc.components.schemas.Error.properties.errors.items.properties.messsage).toEqual({ type: 'string' });
    // Every $ref resolves.
    for (const m of JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/(\w+)\/(\w+)"/g))
      expect(doc.components[m[1]][m[2]], m[0]).toBeDefined();
  });

  test('one request type as a standalone JSON Schema', () => {
    // biome-ignore lint/suspicious/noExplicitAny: the test walks the schema freely
    const s = requestJsonSchema('WebhookRequest') as any;
    expect(s.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(s.required).toEqual(['name', 'url', 'event_types']);
    expect(s.properties.event_types.items.enum).toContain('bundle_sent');
    expect(requestJsonSchema('Nope')).toBeUndefined();
  });

  test('served at /api/v2/openapi.json without a key', async () => {
    const res = await app.inject({ method: 'GET', url: `${API_ROOT}/openapi.json` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json().paths['/bundles/{slug}/'].get.operationId).toBe('getBundle');
  });
});
