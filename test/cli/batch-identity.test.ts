// A batch knows itself, on both backends: the same command on an edited CSV without custom_keys
// finds the earlier journal of that CSV, carries over the rows it sent (wherever they moved), sends
// the new and the fixed ones, and refuses a sent row whose values changed until the operator
// chooses (--new-batch, or a custom_key column, each named): "safe to run again" stays true.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixture, useTempDir } from '../helpers.js';
import { BOTH_BACKENDS, openedBackend } from './backends.js';
import { esignIn } from './inProcess.js';

const files = useTempDir('esign-batch-identity-');
const rows = (...emails: string[]) => `name,email\n${emails.map((e) => `${e.split('@')[0]},${e}`).join('\n')}\n`;

describe.each(BOTH_BACKENDS)('on the %s', (name, make) => {
  const b = openedBackend(make);
  let spec: string;
  beforeAll(async () => {
    spec = join(files.dir, `spec-${name}.json`);
    writeFileSync(
      spec,
      JSON.stringify({
        packets: [{ name: '{{name}}', email: '{{email}}' }],
        documents: [{ file_path: fixture('contract.pdf') }],
      }),
    );
  });
  const send = async (csv: string, ...more: string[]) => {
    const r = await esignIn(['batch', 'send', csv, '--spec', spec, '--yes', '--live', '--json', ...more], {
      env: b.env,
    });
    return { ...r, summary: r.stdout ? JSON.parse(r.stdout) : undefined };
  };
  const bundles = async () => (await b.engine.listBundles({ per_page: 100 })).items;

  it('an edited CSV: rows sent before are carried over wherever they moved, new rows are sent, none twice', async () => {
    const csv = join(files.dir, `moved-${name}.csv`);
    writeFileSync(csv, rows('ada@example.com', 'bob@example.com', 'cy@example.com'));
    expect((await send(csv)).summary).toMatchObject({ created: 3, failed: 0 });
    // A row inserted at the top, one appended: the three sent rows move down a line.
    writeFileSync(
      csv,
      rows('dee@example.com', 'ada@example.com', 'bob@example.com', 'cy@example.com', 'eve@example.com'),
    );
    // --dry-run reads the journals as the send does: what it says is what the send then does.
    const dry = await esignIn(['batch', 'send', csv, '--spec', spec, '--dry-run', '--json'], { env: b.env });
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ rows: 5, sent_before: 3, valid: 2, exists: 0, would_create: 2 });
    const again = await send(csv);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.summary).toMatchObject({ rows: 5, created: 2, skipped: 3, exists: 0, failed: 0 });
    const to = (await bundles()).map((x) => x.packets[0].email).sort();
    expect(to).toEqual(['ada@example.com', 'bob@example.com', 'cy@example.com', 'dee@example.com', 'eve@example.com']);
    // The same command once more: nothing left to send.
    expect((await send(csv)).summary).toMatchObject({ created: 0, skipped: 5 });
  });

  it('a failed row fixed in the CSV is sent; the rows sent before are not', async () => {
    const before = (await bundles()).length;
    const csv = join(files.dir, `fixed-${name}.csv`);
    writeFileSync(csv, rows('fay@example.com', 'gus@example', 'hal@example.com'));
    const first = await send(csv);
    expect(first.exitCode).toBe(12);
    expect(JSON.parse(first.stderr).message).toMatch(
      /1 of 3 rows failed\. Fix them and run the same command again: rows already sent are skipped\.$/,
    );
    writeFileSync(csv, rows('fay@example.com', 'gus@example.com', 'hal@example.com'));
    const fixed = await send(csv);
    expect(fixed.exitCode, fixed.stderr).toBe(0);
    expect(fixed.summary).toMatchObject({ created: 1, skipped: 2, failed: 0 });
    expect((await bundles()).length).toBe(before + 3);
  });

  it('a sent row edited is refused, naming --new-batch and a custom_key column; --new-batch sends the CSV as a new batch', async () => {
    const csv = join(files.dir, `edited-${name}.csv`);
    writeFileSync(csv, rows('ivy@example.com', 'jon@example.com'));
    expect((await send(csv)).summary).toMatchObject({ created: 2 });
    const before = (await bundles()).length;
    writeFileSync(csv, rows('ivy@example.com', 'joan@example.com'));
    const refused = await send(csv);
    expect(refused.exitCode).toBe(2);
    expect(JSON.parse(refused.stderr).message).toMatch(
      new RegExp(
        `^${csv.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} has changed since batch \\w+ \\(journal .+\\) sent from it: row 2 \\(Bundle \\w+\\) as sent holds values no row has now, and row 2 holds values never sent: an edited row cannot be told from a new one, so neither is sent\\. Nothing was sent\\. To send them, run the same command with --new-batch \\(every row of this CSV is then sent as a new batch\\), or give the CSV a custom_key column \\(rows are then matched by key\\)\\.$`,
      ),
    );
    expect((await bundles()).length).toBe(before);
    const anew = await send(csv, '--new-batch');
    expect(anew.exitCode, anew.stderr).toBe(0);
    expect(anew.summary).toMatchObject({ created: 2 });
  });

  it('a sent row edited and a row inserted above it: refused, naming both; identical rows are warned of', async () => {
    const csv = join(files.dir, `inserted-${name}.csv`);
    const five = ['pia', 'quin', 'rex', 'sol', 'tam'].map((n) => `${n}-${name.replace(/\W/g, '')}@example.com`);
    writeFileSync(csv, rows(...five));
    expect((await send(csv)).summary).toMatchObject({ created: 5 });
    const before = (await bundles()).length;
    // Row 3's email changed, a new row 1 inserted: every row below moves down one.
    writeFileSync(csv, rows('uma@example.com', five[0]!, five[1]!, 'rex2@example.com', five[3]!, five[4]!));
    const refused = await send(csv);
    expect(refused.exitCode).toBe(2);
    expect(JSON.parse(refused.stderr).message).toMatch(
      /row 3 \(Bundle \w+\) as sent holds values no row has now, and rows 1 and 4 hold values never sent: .*Nothing was sent\./,
    );
    expect((await bundles()).length).toBe(before);
    // Two identical rows are both sent (the CSV may mean it), with a warning naming them.
    const twice = join(files.dir, `twice-${name}.csv`);
    writeFileSync(twice, rows('val@example.com', 'wes@example.com', 'val@example.com'));
    const r = await esignIn(['batch', 'send', twice, '--spec', spec, '--yes', '--live'], { env: b.env });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'Warning: row 3 (as row 1) repeats an earlier row value for value: each is sent as a Bundle of its own.',
    );
  });

  it('with a custom_key column rows are matched by key: an edited row whose key was sent exists, a new key is sent', async () => {
    const csv = join(files.dir, `keyed-${name}.csv`);
    writeFileSync(csv, `name,email,custom_key\nKim,kim@example.com,${name}-k1\nLee,lee@example.com,${name}-k2\n`);
    expect((await send(csv)).summary).toMatchObject({ created: 2 });
    writeFileSync(csv, `name,email,custom_key\nKim,kim@example.org,${name}-k1\nMo,mo@example.com,${name}-k3\n`);
    const r = await send(csv);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.summary).toMatchObject({ created: 1, exists: 1 });
  });

  it('a pinned --batch-id: a sent row edited is refused naming another --batch-id; a failed row fixed is sent', async () => {
    const csv = join(files.dir, `pinned-${name}.csv`);
    const id = `pinned-${name.replace(/\W/g, '')}`;
    writeFileSync(csv, rows('nan@example.com', 'oz@example'));
    expect((await send(csv, '--batch-id', id)).summary).toMatchObject({ created: 1, failed: 1 });
    writeFileSync(csv, rows('nan@example.com', 'oz@example.com'));
    expect((await send(csv, '--batch-id', id)).summary).toMatchObject({ created: 1, skipped: 1 });
    writeFileSync(csv, rows('nancy@example.com', 'oz@example.com'));
    const refused = await send(csv, '--batch-id', id);
    expect(refused.exitCode).toBe(2);
    expect(JSON.parse(refused.stderr).message).toMatch(
      /row 1 \(Bundle \w+\) no longer holds the values sent \(a --batch-id batch resumes row by row\).*give this CSV another --batch-id, or a custom_key column/,
    );
  });
});
