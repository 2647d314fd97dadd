// One translation of fastify's refusals (src/server/refusals.ts) for the API and the pages: the same
// status, code and words, the API's naming its limits.
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/domain/errors.js';
import { DEFAULT_LIMITS } from '../../src/server/limits.js';
import { apiRefusalLimits, refusalOf } from '../../src/server/refusals.js';
import { asApiError } from '../../src/server/pages/kit.js';

/** The error a real fastify with @fastify/multipart raises for this multipart body. */
async function raised(files: number, limits: { files?: number; fileSize?: number }): Promise<unknown> {
  const app = Fastify();
  await app.register((await import('@fastify/multipart')).default);
  let caught: unknown;
  app.post('/', async (req) => {
    try {
      for await (const part of req.parts({ limits })) if (part.type === 'file') await part.toBuffer();
    } catch (e) {
      caught = e;
    }
    return {};
  });
  const boundary = 'b0undary';
  const body = `${Array.from(
    { length: files },
    (_, i) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="f${i}"; filename="f${i}.pdf"\r\nContent-Type: application/pdf\r\n\r\n${'x'.repeat(64)}\r\n`,
  ).join('')}--${boundary}--\r\n`;
  await app.inject({
    method: 'POST',
    url: '/',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: body,
  });
  await app.close();
  return caught;
}

describe('fastify refusals, one translation', () => {
  it('too many files: a 400 that says so, alike on the API and on a page', async () => {
    const e = await raised(3, { files: 1 });
    expect((e as { code?: string }).code).toBe('FST_FILES_LIMIT');
    const api = refusalOf(e, apiRefusalLimits(DEFAULT_LIMITS))!;
    const page = asApiError(e)!;
    expect([api.status, api.code]).toEqual([400, 'invalid']);
    expect([page.status, page.code]).toEqual([api.status, api.code]);
    expect(page.message).toBe('The request has more files or fields than allowed.');
    expect(api.message).toBe(
      `The request has more files or fields than allowed (at most ${DEFAULT_LIMITS.uploadFiles} files).`,
    );
  });

  it('a file past its size: 413, the API naming the limit', async () => {
    const e = await raised(1, { fileSize: 10 });
    const api = refusalOf(e, apiRefusalLimits(DEFAULT_LIMITS))!;
    const page = asApiError(e)!;
    expect([api.status, page.status]).toEqual([413, 413]);
    expect(api.message).toMatch(/^An uploaded file may be at most [\d.]+ MB\.$/);
    expect(page.message).toBe('An uploaded file is too large.');
  });

  it('an engine error passes as it is; anything else is no refusal (a 500 on the API)', () => {
    const engine = new ApiError(409, 'conflict', 'No.');
    expect(refusalOf(engine, {})).toBe(engine);
    expect(asApiError(new Error('bug'))).toBeUndefined();
  });
});
