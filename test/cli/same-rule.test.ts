// The same rule everywhere, on both backends: a phone number is E.164 in a flag, a spec, a CSV row
// and the engine; a flag's value is checked before any request (exit 2 naming it, never the
// backend's 400); a page larger than the maximum is refused, not cut short unsaid.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PHONE_RULE } from '../../src/domain/phone.js';
import { bundleRequest, fixture, useTempDir } from '../helpers.js';
import { BOTH_BACKENDS, openedBackend } from './backends.js';
import { esignIn } from './inProcess.js';

const files = useTempDir('esign-same-rule-');
const PDF = fixture('contract.pdf');

describe.each(BOTH_BACKENDS)('on the %s', (_name, make) => {
  const b = openedBackend(make);
  const esign = (args: string[]) => esignIn(args, { env: b.env });
  const bundleId = async () => (await b.engine.createBundle(bundleRequest({ status: 'dr' }))).id;

  it('--signer with a phone that holds no number: a usage error naming it; as typed: created, texted in E.164', async () => {
    for (const phone of ['+12', '12', '1-800-FLOWERS']) {
      const r = await esign(['bundle', 'create', '--file', PDF, '--signer', `Bob <${phone}>`, '--live']);
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toMatch(`--signer "Bob <${phone}>"`);
    }
    const ok = await esign(['bundle', 'create', '--file', PDF, '--signer', 'Bob <(505) 555-5555>', '--live', '--json']);
    expect(ok.exitCode, ok.stderr).toBe(0);
    const made = JSON.parse(ok.stdout);
    // The wire answers the number as sent; the text goes to its E.164 form.
    expect(made.packets[0]).toMatchObject({ phone: '(505) 555-5555', deliver_via: 'phone' });
    expect((await b.engine.listBundles()).total).toBe(1);
    const sms = b.engine.outbox().filter((m) => m.bundle_id === made.id && m.channel === 'sms');
    expect(sms.map((m) => m.recipient)).toEqual(['+15055555555']);
  });

  it('a spec with a phone that holds no number is refused naming the member (exit 3), and no SMS is recorded', async () => {
    const before = b.engine.outbox().length;
    for (const phone of ['12', 'abc', '1-800-FLOWERS']) {
      const spec = join(files.dir, `spec-${phone}.json`);
      writeFileSync(
        spec,
        JSON.stringify({ packets: [{ name: 'Bob', phone, deliver_via: 'phone' }], documents: [{ file_path: PDF }] }),
      );
      const r = await esign(['bundle', 'create', '-f', spec, '--live']);
      expect(r.exitCode, r.stderr).toBe(3);
      expect(r.stderr).toContain('packets[0].phone');
      expect(r.stderr).toContain('Enter a phone number');
    }
    expect(b.engine.outbox().length).toBe(before);
  });

  it('a CSV row with a phone that holds no number fails batch check, naming its row and column; typed ones pass', async () => {
    const csv = join(files.dir, 'phones.csv');
    writeFileSync(
      csv,
      'name,phone\nAda,+15550100100\nBob,12\nCy,1-800-FLOWERS\nDee,(505) 555-5555\nEd,505.555.5555\nFay,+44 20 7946 0958\n',
    );
    const spec = join(files.dir, 'phones.json');
    writeFileSync(
      spec,
      JSON.stringify({
        packets: [{ name: '{{name}}', phone: '{{phone}}', deliver_via: 'phone' }],
        documents: [{ file_path: PDF }],
      }),
    );
    const r = await esign(['batch', 'check', csv, '--spec', spec]);
    expect(r.exitCode, r.stderr).toBe(3);
    expect(r.stdout.split('\n')).toEqual([`row 2, column phone: ${PHONE_RULE}`, `row 3, column phone: ${PHONE_RULE}`]);
  });

  it('a Person phone flag is checked before the request; a spec channel by the engine', async () => {
    const flag = await esign(['person', 'create', '--name', 'Bob', '--phone', '1-800-FLOWERS']);
    expect(flag.exitCode).toBe(2);
    expect(flag.stderr).toBe(`esign: --phone "1-800-FLOWERS": ${PHONE_RULE}`);
    const spec = join(files.dir, 'person.json');
    writeFileSync(spec, JSON.stringify({ name: 'Bob', channels: [{ phone: '12' }] }));
    const body = await esign(['person', 'create', '-f', spec]);
    expect(body.exitCode).toBe(3);
    expect(body.stderr).toContain('channels[0].phone');
    expect((await b.engine.listPersons()).total).toBe(0);
  });

  it('packet update and local reassign check --phone and --email before the request', async () => {
    const packet = (await b.engine.createBundle(bundleRequest())).packets[0].id;
    for (const args of [
      ['packet', 'update', packet, '--phone', '12'],
      ['packet', 'update', packet, '--email', 'nope@'],
      ['local', 'reassign', packet, '--name', 'Cy', '--phone', 'abc'],
    ]) {
      const r = await esign(args);
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^esign: ${args.at(-2)} "${args.at(-1)}": `));
    }
  });

  it('bundle update and create check --expires before the request: its form, and that it is in the future', async () => {
    const id = await bundleId();
    for (const [value, why] of [
      ['tomorrow', 'Must be a date-time (ISO 8601) or a date (YYYY-MM-DD).'],
      ['2020-01-01', 'Must be in the future.'],
    ]) {
      const update = await esign(['bundle', 'update', id, '--expires', value]);
      expect(update.exitCode, update.stderr).toBe(2);
      expect(update.stderr).toBe(`esign: --expires "${value}": ${why}`);
      const create = await esign([
        'bundle',
        'create',
        '--file',
        PDF,
        '--signer',
        'Ada <ada@example.com>',
        '--expires',
        value,
      ]);
      expect(create.exitCode, create.stderr).toBe(2);
      expect(create.stderr).toBe(`esign: --expires "${value}": ${why}`);
    }
    const later = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const ok = await esign(['bundle', 'update', id, '--expires', later]);
    expect(ok.exitCode, ok.stderr).toBe(0);
    const cc = await esign(['bundle', 'update', id, '--cc', 'ok@example.com', '--cc', 'nope@']);
    expect(cc.stderr).toMatch(/^esign: --cc "nope@": /);
    const reminder = await esign(['bundle', 'update', id, '--reminder-interval', '31']);
    expect(reminder.exitCode, reminder.stderr).toBe(2);
    expect(reminder.stderr).toMatch(/^esign: --reminder-interval 31: /);
  });

  it('--per-page above 100 is a usage error saying how to get more; --limit pages through', async () => {
    const r = await esign(['bundle', 'list', '--per-page', '500', '-q']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(
      'esign: --per-page is at most 100, got 500: for more items give --limit 500 (fetched page by page) or --all.',
    );
    const total = (await b.engine.listBundles()).total;
    for (let i = total; i < 105; i++) await b.engine.createBundle(bundleRequest({ status: 'dr' }));
    const all = await esign(['bundle', 'list', '--limit', '500', '-q']);
    expect(all.exitCode, all.stderr).toBe(0);
    expect(all.stdout.split('\n')).toHaveLength(Math.max(105, total));
  });
});
