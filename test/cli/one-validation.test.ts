// What check passes, send sends, on both backends: `batch check`, `batch send --dry-run` and
// `bundle create --dry-run` run the create's whole validation (on the engine its own create, tried and
// undone; on esign serve every rule the client can know, with the account's facts read once), so the
// rows the operator was told are valid are the rows send creates, and the rest are refused by both
// for the same reason, named by column.
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, useTempDir } from '../helpers.js';
import { BOTH_BACKENDS, type CliBackend, openedBackend, serveBackend } from './backends.js';
import { esignIn } from './inProcess.js';

const files = useTempDir('esign-one-validation-');
const PAST = '2020-01-01';

/** The operator's CSV: five rows a create refuses (each for one reason) and one it accepts. */
const ROWS = [
  ['Corrupt', 'ada@example.com', 'corrupt.pdf', '', ''],
  ['Text named as the document', 'ada@example.com', 'notes.txt', '', ''],
  ['Test to an unverified address', 'stranger@example.com', 'contract.pdf', 'true', ''],
  ['Word without the office feature', 'ada@example.com', 'contract.docx', '', ''],
  ['Expired', 'ada@example.com', 'contract.pdf', '', PAST],
  ['Good', 'ada@example.com', 'contract.pdf', '', ''],
];
const REFUSALS = [
  'row 1, column doc: The PDF is corrupt or unreadable.',
  'row 2, column doc: The file is not a PDF (no %PDF- header).',
  "row 3, column email: Test Bundles are delivered only to verified email addresses of account users; stranger@example.com is not one: verify it as a user of the account (esign local users add stranger@example.com, or esign local users verify stranger@example.com; on the hosted service, in the account's user settings), or deliver by embed.",
  'row 4, column doc: Uploading office documents (contract.docx) requires the office-upload account feature.',
  'row 5, column expires: Must be in the future.',
];

let csv: string;
let good: string;
let spec: string;
beforeAll(() => {
  copyFileSync(fixture('corrupt.pdf'), join(files.dir, 'corrupt.pdf'));
  copyFileSync(fixture('not-a-pdf.txt'), join(files.dir, 'notes.txt'));
  copyFileSync(fixture('contract.pdf'), join(files.dir, 'contract.pdf'));
  copyFileSync(fixture('contract.docx'), join(files.dir, 'contract.docx'));
  spec = join(files.dir, 'spec.json');
  writeFileSync(
    spec,
    JSON.stringify({ packets: [{ name: 'Signer', email: '{{email}}' }], documents: [{ file_path: '{{doc}}' }] }),
  );
  const header = 'label,email,doc,is_test,expires';
  csv = join(files.dir, 'rows.csv');
  writeFileSync(csv, `${[header, ...ROWS.map((r) => r.join(','))].join('\n')}\n`);
  good = join(files.dir, 'good.csv');
  writeFileSync(good, `${header}\n${ROWS[5].join(',')}\n${ROWS[5].join(',').replace('Good', 'Good too')}\n`);
});

describe.each(BOTH_BACKENDS)('on the %s', (_name, make) => {
  const b = openedBackend(make);
  const esign = (args: string[]) => esignIn(args, { env: b.env });
  const bundles = async () => (await b.engine.listBundles()).total;

  it('batch check refuses each row a create refuses, naming its column, and passes the one it accepts', async () => {
    const r = await esign(['batch', 'check', csv, '--spec', spec]);
    expect(r.exitCode, r.stderr).toBe(3);
    expect(r.stdout.split('\n')).toEqual(REFUSALS);
    expect(r.stderr.split('\n')[0]).toBe('Checked 6 rows: 1 valid, 5 invalid.');
    const dry = await esign(['batch', 'send', csv, '--spec', spec, '--dry-run']);
    expect([dry.exitCode, dry.stdout]).toEqual([3, REFUSALS.join('\n')]);
    expect(await bundles()).toBe(0);
  });

  it('send refuses the same rows and creates the valid one: what check passes, send sends', async () => {
    const r = await esign(['batch', 'send', csv, '--spec', spec, '--yes', '--live', '--json']);
    expect(r.exitCode, r.stderr).toBe(12);
    const summary = JSON.parse(r.stdout);
    expect(summary).toMatchObject({ created: 1, failed: 5 });
    expect(summary.failures.map((f: { row: number }) => f.row)).toEqual([1, 2, 3, 4, 5]);
    const ok = await esign(['batch', 'check', good, '--spec', spec]);
    expect(ok.exitCode, ok.stdout).toBe(0);
    const sent = await esign(['batch', 'send', good, '--spec', spec, '--yes', '--live', '--json']);
    expect(sent.exitCode, sent.stderr).toBe(0);
    expect(JSON.parse(sent.stdout)).toMatchObject({ created: 2, failed: 0 });
  });

  it('bundle create --dry-run refuses what the create refuses, creates nothing, and says a valid one is valid', async () => {
    const before = await bundles();
    const dry = (...args: string[]) =>
      esign(['bundle', 'create', '--dry-run', '--signer', 'Ada <ada@example.com>', ...args]);
    for (const [args, line] of [
      [['--file', join(files.dir, 'corrupt.pdf')], 'field documents[0].file_index: The PDF is corrupt or unreadable.'],
      [
        ['--file', join(files.dir, 'notes.txt')],
        'field documents[0].file_index: The file is not a PDF (no %PDF- header).',
      ],
      [
        ['--file', join(files.dir, 'contract.docx')],
        'field documents[0].file_index: Uploading office documents (contract.docx) requires the office-upload account feature.',
      ],
    ] as const) {
      const r = await dry(...args);
      expect(r.exitCode, r.stderr).toBe(3);
      expect(r.stdout).toBe(line);
      expect(r.stderr.split('\n').at(-1)).toBe('esign: The create would be refused: 1 problem.');
    }
    const test = await esign([
      'bundle',
      'create',
      '--dry-run',
      '--test',
      '--file',
      join(files.dir, 'contract.pdf'),
      '--signer',
      'Stranger <stranger@example.com>',
      '--json',
    ]);
    expect(test.exitCode).toBe(3);
    expect(JSON.parse(test.stdout)).toMatchObject({
      ok: false,
      problems: [
        {
          field: 'packets[0].email',
          message: expect.stringMatching(/^Test Bundles are delivered only to verified email addresses/),
        },
      ],
    });
    const valid = await dry('--file', join(files.dir, 'contract.pdf'));
    expect(valid.exitCode, valid.stderr).toBe(0);
    expect(valid.stdout).toBe('');
    expect(valid.stderr.split('\n')[0]).toBe('Valid: the create would be accepted (nothing was created).');
    expect(await bundles()).toBe(before);
  });
});

describe('on a remote server without esign sandbox (as the hosted service is)', () => {
  let b: CliBackend;
  beforeAll(async () => {
    b = await serveBackend({ local: undefined });
  });
  afterAll(() => b.close());

  it('checks what the client can know and names what only the server checks at send', async () => {
    const r = await esignIn(['batch', 'check', csv, '--spec', spec], { env: b.env });
    expect(r.exitCode).toBe(3);
    expect(r.stdout.split('\n')).toEqual([REFUSALS[0], REFUSALS[1], REFUSALS[4]]);
    expect(r.stderr.split('\n')).toEqual([
      'Checked 6 rows: 3 valid, 3 invalid.',
      'Checked by the server at send: the account features the request needs (office upload, teams, reminders, signing brands, field regex); that a test Bundle goes only to verified addresses of account users.',
      'After each create: office documents are converted to PDF after the create (a failure fails that Bundle).',
      'esign: 3 of 6 rows are invalid.',
    ]);
  });
});
