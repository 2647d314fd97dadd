// A failure reads the same from the CLI on either backend: every field error of a refused request
// (the remote one reads them from the Error object on the wire), the exit code beside the HTTP status
// under --json, and `esign api` exiting with the verb's code for the same failure.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleRequest, tempDir } from '../helpers.js';
import { type CliBackend, localBackend, serveBackend } from './backends.js';
import { esignIn } from './inProcess.js';

const files = tempDir('esign-errors-');
const BAD = join(files.dir, 'bad.json');
writeFileSync(
  BAD,
  JSON.stringify(bundleRequest({ email_subject: 'x'.repeat(401), packets: [{ name: 'A', email: 'nope' }] })),
);
afterAll(() => files.cleanup());

describe.each([
  ['the local engine', localBackend],
  ['esign serve through the remote adapter', () => serveBackend()],
])('on %s', (_name, make) => {
  let b: CliBackend;
  beforeAll(async () => {
    b = await make();
  });
  afterAll(async () => b?.close());
  const esign = (...args: string[]) => esignIn(args, { env: b.env });
  const sentBundle = async () => (await b.engine.createBundle(bundleRequest())).id;

  it('shows every field error of a refused create, one line each (exit 3)', async () => {
    const r = await esign('bundle', 'create', '-f', BAD, '--live');
    expect([r.exitCode, r.stderr.split('\n')]).toEqual([
      3,
      [
        'esign: email_subject: Ensure this field has no more than 400 characters. (and 1 more)',
        '  email_subject: Ensure this field has no more than 400 characters.',
        '  packets[0].email: Enter a valid email address.',
      ],
    ]);
  });

  it('--json: the Error object with the HTTP status and the exit code', async () => {
    const missing = await esign('bundle', 'get', 'nope', '--json');
    expect(missing.exitCode).toBe(6);
    expect(JSON.parse(missing.stderr)).toMatchObject({ status: 404, exit_code: 6, code: 'not_found' });
    const bad = await esign('bundle', 'create', '-f', BAD, '--live', '--json');
    expect(JSON.parse(bad.stderr)).toMatchObject({ status: 400, exit_code: 3, code: 'invalid' });
    expect(JSON.parse(bad.stderr).errors).toHaveLength(2);
    const usage = await esign('bundle', 'get', '--json');
    expect(JSON.parse(usage.stderr)).toMatchObject({ code: 'usage', exit_code: 2 });
  });

  it('a send refused by the state: 7 from the verb and from esign api, 400 beside it under --json', async () => {
    const slug = await sentBundle();
    const verb = await esign('bundle', 'send', slug, '--live', '--json');
    expect(verb.exitCode).toBe(7);
    expect(JSON.parse(verb.stderr)).toMatchObject({ status: 400, exit_code: 7, code: 'invalid' });
    const api = await esign('api', 'POST', `/bundles/${slug}/send/`, '--json');
    expect([api.exitCode, JSON.parse(api.stderr)]).toEqual([7, expect.objectContaining({ status: 400, exit_code: 7 })]);
  });

  it('an update refused by the state: 7 from both; a bad value on an open Bundle: 3 from the API, 2 naming the flag from bundle update', async () => {
    const slug = await sentBundle();
    await b.engine.cancelBundle(slug);
    expect((await esign('bundle', 'update', slug, '--reminder-interval', '3')).exitCode).toBe(7);
    expect((await esign('api', 'PATCH', `/bundles/${slug}/`, '-F', 'reminder_interval=3')).exitCode).toBe(7);
    const open = await sentBundle();
    // A flag's value is checked before any request (issue 38): a usage error naming the flag.
    const flag = await esign('bundle', 'update', open, '--reminder-interval', '45');
    expect(flag.exitCode).toBe(2);
    expect(flag.stderr).toMatch(/^esign: --reminder-interval 45: /);
    expect((await esign('api', 'PATCH', `/bundles/${open}/`, '-F', 'reminder_interval=45')).exitCode).toBe(3);
  });

  it('an unknown Bundle: 6 from both', async () => {
    expect((await esign('bundle', 'get', 'nope')).exitCode).toBe(6);
    expect((await esign('api', 'GET', '/bundles/nope/')).exitCode).toBe(6);
  });
});
