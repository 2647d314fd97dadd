// The last rough edges of a batch, on both backends: csv-template's example row passes its own
// check (a role that signs with an SMS pin gets a phone, a file placeholder names a PDF, each role
// its own person); `batch status` counts rows whose key a Bundle already had apart from rows sent;
// `--results` lists rows in the CSV's order however they finished.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleRequest, fixture, useTempDir } from '../helpers.js';
import { BOTH_BACKENDS, openedBackend } from './backends.js';
import { esignIn } from './inProcess.js';

const files = useTempDir('esign-batch-edges-');

describe.each(BOTH_BACKENDS)('on the %s', (name, make) => {
  const b = openedBackend(make);
  const esign = (args: string[]) => esignIn(args, { env: b.env });

  it("csv-template's example row passes batch check, for every kind of source", async () => {
    const dir = join(files.dir, `template-${name}`);
    const { mkdirSync } = await import('node:fs');
    mkdirSync(dir);
    copyFileSync(fixture('contract.pdf'), join(dir, 'contract.pdf'));
    const spec = join(dir, 'spec.json');
    writeFileSync(
      spec,
      JSON.stringify({
        packets: [
          { name: '{{name}}', email: '{{email}}', phone: '{{mobile}}', auth_sms: true },
          { name: '{{witness}}', email: '{{witness_email}}' },
        ],
        documents: [{ file_path: '{{doc}}' }],
      }),
    );
    const envelope = await b.engine.createEnvelopeTemplate(
      JSON.parse(readFileSync(fixture('templates/envelope-template.json'), 'utf8')),
      dirname(fixture('templates/envelope-template.json')),
    );
    const template = await b.engine.importTemplate({
      name: 'Lease',
      pdf: readFileSync(fixture('contract.pdf')),
      roles: [{ key: 'tenant' }, { key: 'landlord' }],
      fields: [{ key: 'rent', kind: 'inp', page: 1, editor_roles: ['landlord'], default_value: '1000' }],
    });
    for (const source of [
      ['--spec', spec],
      ['--envelope-template', envelope.id],
      ['--template', template.id],
    ]) {
      const t = await esign(['batch', 'csv-template', ...source]);
      expect(t.exitCode, t.stderr).toBe(0);
      const csv = join(dir, `${source[0].slice(2)}.csv`);
      writeFileSync(csv, `${t.stdout}\n`);
      const check = await esign(['batch', 'check', csv, ...source]);
      expect(check.exitCode, `${source.join(' ')}\n${t.stdout}\n${check.stdout}`).toBe(0);
    }
  });

  it('batch status counts rows whose custom_key a Bundle already had apart from the rows it sent', async () => {
    await b.engine.createBundle(bundleRequest({ custom_key: `${name}-had` }));
    const spec = join(files.dir, `status-${name}.json`);
    writeFileSync(
      spec,
      JSON.stringify({
        packets: [{ name: 'Ada', email: 'ada@example.com' }],
        documents: [{ file_path: fixture('contract.pdf') }],
      }),
    );
    const csv = join(files.dir, `status-${name}.csv`);
    writeFileSync(csv, `label,custom_key\nOld,${name}-had\nNew,${name}-new\n`);
    const sent = await esign(['batch', 'send', csv, '--spec', spec, '--yes', '--live', '--json']);
    expect(JSON.parse(sent.stdout)).toMatchObject({ created: 1, exists: 1 });
    const status = await esign(['batch', 'status', JSON.parse(sent.stdout).batch, '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ sent: 1, exists: 1, failed: 0, in_flight: 0 });
  });

  it('--results lists the rows in the order of the CSV, eight sent at a time', async () => {
    const spec = join(files.dir, `results-${name}.json`);
    writeFileSync(
      spec,
      JSON.stringify({
        packets: [{ name: 'Ada', email: '{{email}}' }],
        documents: [{ file_path: fixture('contract.pdf') }],
      }),
    );
    const csv = join(files.dir, `results-${name}.csv`);
    // Every fifth row fails at once (no address): rows finish out of the order they started in.
    const emails = Array.from({ length: 60 }, (_, i) => (i % 5 === 2 ? 'nope' : `p${i}@example.com`));
    writeFileSync(csv, `email\n${emails.join('\n')}\n`);
    const out = join(files.dir, `results-${name}.jsonl`);
    await esign(['batch', 'send', csv, '--spec', spec, '--yes', '--live', '--concurrency', '8', '--results', out]);
    const rows = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).row);
    expect(rows).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
  });
});
