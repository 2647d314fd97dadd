// What check passes, the create accepts: the engine's check of a create (its own create, tried in a
// transaction that is rolled back) agrees with the create on every request of createCases.ts, stores
// nothing and tells no one; and every place the create path refuses a request (each FieldErrors.add
// in its functions, found by reading the source) is reached by one of those requests, so a refusal
// added to the create without a request here fails this file.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, FieldErrors } from '../../src/domain/errors.js';
import { bundleRequest } from '../helpers.js';
import { type Case, accepted, made, rejected } from './createCases.js';
import { type TestEngine, useEngine, withoutSoffice } from './support.js';

const ctx = useEngine();
const ROOT = join(import.meta.dirname, '..', '..');

/**
 * The functions a create runs through, by file ('*': all of it). A refusal in a file not named here
 * is caught too once a request reaches it (see the last test).
 */
const CREATE_PATH: Record<string, readonly string[] | '*'> = {
  'src/local/bundles/create.ts': '*',
  'src/domain/reachability.ts': '*',
  'src/domain/featureGates.ts': '*',
  'src/domain/schemas.ts': ['parseOr400'],
  'src/local/bundles/lifecycle.ts': ['applyBundleSettings'],
  'src/local/account/rules.ts': ['checkTeam'],
  'src/local/templates/templates.ts': ['templateDocument', 'assignRoles'],
  'src/local/templates/envelopes.ts': ['expandEnvelopeRequest', 'matchPackets', 'fieldValues'],
};

/** `file:line` of every `errs.add(field, message)` (any FieldErrors' add) in the create path's functions. */
function refusalSites(): Map<string, string> {
  const sites = new Map<string, string>();
  for (const [file, names] of Object.entries(CREATE_PATH)) {
    const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node, inside: string | undefined) => {
      let fn = inside;
      if (ts.isFunctionDeclaration(node) && node.name) fn = node.name.text;
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        node.expression.name.text === 'add' &&
        node.arguments.length === 2 &&
        ts.isIdentifier(node.expression.expression) &&
        fn !== undefined &&
        (names === '*' || names.includes(fn))
      ) {
        const line = source.getLineAndCharacterOfPosition(node.expression.name.getStart(source)).line + 1;
        sites.set(`${file}:${line}`, fn);
      }
      ts.forEachChild(node, (child) => visit(child, fn));
    };
    visit(source, undefined);
  }
  return sites;
}

/** Where each FieldErrors.add was called from while `recording`, as `file:line` under the repository. */
const reached = new Map<string, string>();
let recording: string | undefined;
const add = FieldErrors.prototype.add;
beforeAll(() => {
  FieldErrors.prototype.add = function (this: FieldErrors, field: string, message: string) {
    if (recording) {
      const frame = (new Error().stack ?? '').split('\n').find((l) => l.includes('/src/') && !l.includes('errors.ts'));
      const m = frame && /\(?([^()\s]+):(\d+):\d+\)?$/.exec(frame.trim());
      if (m) reached.set(`${m[1].slice(m[1].indexOf('/src/') + 1)}:${m[2]}`, recording);
    }
    add.call(this, field, message);
  };
});
afterAll(() => {
  FieldErrors.prototype.add = add;
});

/** What the engine holds that a create writes: a check must leave every one as it was. */
function written(e: TestEngine) {
  const count = (table: string) => (e.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  const blobs = (() => {
    try {
      return readdirSync(join(e.dataDir, 'blobs'), { recursive: true }).length;
    } catch {
      return 0;
    }
  })();
  return {
    bundles: count('bundles'),
    packets: count('packets'),
    documents: count('documents'),
    events: count('bundle_events'),
    blobs_rows: count('blobs'),
    outbox: e.outbox().length,
    blob_files: blobs,
  };
}

async function checkThenCreate(e: TestEngine, c: Pick<Case, 'body' | 'files' | 'features' | 'withoutSoffice'>) {
  if (c.features) e.account.setFeatures(c.features, true);
  const body = await made(e, c.body);
  const before = written(e);
  return withoutSoffice(c.withoutSoffice, async () => {
    recording = 'check';
    const check = await e.checkCreateBundle(structuredClone(body), c.files);
    recording = undefined;
    expect(written(e), 'the check stored or told something').toEqual(before);
    recording = 'create';
    const created = await e.createBundle(body, c.files).then(
      (b) => ({ ok: true as const, b }),
      (err: unknown) => ({ ok: false as const, err }),
    );
    recording = undefined;
    return { check, created };
  });
}

describe('the check of a create refuses exactly what the create refuses, and stores nothing', () => {
  for (const c of rejected)
    it(`refuses: ${c.name}`, async () => {
      const { check, created } = await checkThenCreate(ctx.e, c);
      expect(created.ok, 'the create should refuse this request').toBe(false);
      const err = (created as { err: unknown }).err;
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).status).toBe(400);
      expect(check.errors).toEqual((err as ApiError).errors);
      expect(check.errors.map((x) => x.field)).toContain(c.field);
    });

  for (const c of accepted)
    it(`passes: ${c.name}`, async () => {
      const { check, created } = await checkThenCreate(ctx.e, c);
      expect(check).toEqual({ errors: [] });
      expect(created.ok).toBe(true);
    });

  it('a custom_key another Bundle has is not a refusal of the check but `existing`: the create refuses it', async () => {
    const { e } = ctx;
    const first = await e.createBundle(bundleRequest({ custom_key: 'crm-7' }));
    recording = 'check';
    expect(await e.checkCreateBundle(bundleRequest({ custom_key: 'crm-7' }))).toEqual({
      errors: [],
      existing: first.id,
    });
    recording = 'create';
    await expect(e.createBundle(bundleRequest({ custom_key: 'crm-7' }))).rejects.toMatchObject({
      errors: [{ field: 'custom_key', message: `A Bundle with this custom_key already exists: ${first.id}.` }],
    });
    recording = undefined;
  });

  it('every refusal of the create path is reached by a request of createCases.ts, and none lies outside it', () => {
    const sites = refusalSites();
    expect(sites.size).toBeGreaterThan(40);
    const missed = [...sites.keys()].filter((s) => !reached.has(s));
    expect(missed, 'refusals no request of test/engine/createCases.ts reaches: add one').toEqual([]);
    const outside = [...reached.keys()].filter((s) => !sites.has(s));
    expect(outside, 'refusals of the create outside CREATE_PATH: name their functions there').toEqual([]);
  });
});
