// What a person sees at 80 columns, in-process with a terminal's shape: ids never cut, paths cut
// from the left, times that say something, words instead of "None", when a signer declined,
// live lines that fit, and the pager only for a long list on a terminal.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { barLine } from '../../src/cli/batch/progress.js';
import { fixture, tempDir, argv } from '../helpers.js';
import { esignIn } from './inProcess.js';
import { runCli } from '../../src/cli/main.js';
import { wiring } from '../../src/wiring/wiring.js';
import { captureIO } from '../../src/cli/io.js';

let data: ReturnType<typeof tempDir>;
let env: Record<string, string>;
const tty = (args: string[], columns = 80) => esignIn(args, { env, tty: true, columns });
let slug = '';
let declinedPacket = '';

beforeAll(async () => {
  data = tempDir('esign-view-');
  env = { ESIGN_DATA_DIR: join(data.dir, 'db') };
  const b = JSON.parse(
    (
      await esignIn(
        argv`bundle create --file ${fixture('contract.pdf')} --signer ${'Ada Lovelace <ada@example.com>'}
          --signer ${'Bob Example <bob@example.com>'}
          --label ${'A rather long label for the services agreement of the northern region'} --json`,
        { env },
      )
    ).stdout,
  );
  slug = b.id;
  declinedPacket = b.packets[1].id;
  await esignIn(['local', 'decline', declinedPacket, '--reason', 'wrong amount'], { env });
});
afterAll(() => data.cleanup());

describe('tables at 80 columns', () => {
  it('never cut an id: webhook list and events, person list', async () => {
    const long = 'https://crm.example.com/a/very/long/path/that/does/not/fit/in/eighty/columns/at/all/hooks';
    const hook = (
      await esignIn(
        argv`webhook create --name ${'A webhook with a long name for its purpose'} --url ${long}
          --events bundle_sent,bundle_complete,packet_viewed,packet_declined -q`,
        { env },
      )
    ).stdout;
    await esignIn(['webhook', 'trigger', 'bundle_sent'], { env });
    const person = (
      await esignIn(
        argv`person create --name ${'Someone With A Remarkably Long Name Indeed, Esq.'}
          --email someone.with.a.remarkably.long.address@example.com -q`,
        { env },
      )
    ).stdout;
    const list = await tty(['webhook', 'list']);
    expect(list.stdout).toContain(hook);
    const events = await tty(['webhook', 'events']);
    expect(
      events.stdout
        .split('\n')
        .slice(1)
        .every((l) => /^[0-9a-f-]{36} /.test(l)),
    ).toBe(true);
    expect((await tty(['person', 'list'])).stdout).toContain(person);
    for (const out of [list.stdout, events.stdout])
      for (const l of out.split('\n')) expect([...l].length).toBeLessThanOrEqual(80);
  });

  it('verify cuts a long path from the left, so the file name stays', async () => {
    const dir = join(data.dir, 'a', 'very', 'long', 'path', 'that', 'goes', 'on', 'and', 'on', 'and', 'on');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'contract-final-signed.pdf');
    copyFileSync(fixture('contract.pdf'), file);
    const r = await tty(['verify', file]);
    expect(r.exitCode).toBe(9);
    const row = r.stdout.split('\n')[1]!;
    expect(row).toMatch(/^…\S*contract-final-signed\.pdf +no_match/);
  });
});

describe('bundle inspect on a terminal', () => {
  it('says words, not None, gives timeline times to the second and when a signer declined', async () => {
    const r = await tty(['bundle', 'inspect', slug]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('None');
    // Declined: the header says the files will not be made, as the Files section does.
    expect(r.stdout).toMatch(/^signed files +Will not be made \(Declined\)$/m);
    expect(r.stdout).toMatch(/^documents +contract\.pdf$/m);
    expect(r.stdout).toMatch(/^created +just now$/m);
    const bob = r.stdout.split('\n').find((l) => l.startsWith('Bob Example'))!;
    expect(bob).toMatch(new RegExp(`Declined .*just now +${declinedPacket}$`));
    const timeline = r.stdout.slice(r.stdout.indexOf('TIME'));
    expect(timeline.split('\n')[1]).toMatch(/^\d{2}:\d{2}:\d{2} /);
    expect(r.stdout).not.toMatch(/^just now +event/m);
  });

  it('gives no ADDRESS head over nothing: where every address goes under its row, the column goes', async () => {
    const long = (n: string) => `${n}.with.a.rather.long.address@northwind-legal-and-partners.example.com`;
    const b = JSON.parse(
      (
        await esignIn(
          argv`bundle create --file ${fixture('contract.pdf')} --signer ${`Ada <${long('ada')}>`}
            --signer ${`Bob <${long('bob')}>`} --json`,
          { env },
        )
      ).stdout,
    );
    const signers = (out: string) =>
      out.slice(out.indexOf('\nSigners'), out.indexOf('\n\n', out.indexOf('\nSigners') + 1));
    const narrow = signers((await tty(['bundle', 'inspect', b.id, '--no-pager'])).stdout);
    expect(narrow).toMatch(/^NAME +VIA +STATUS/m);
    // Under its row, whole (on a line of its own when it is too long to follow "email:").
    const words = narrow.replace(/\s+/g, ' ');
    expect(words).toContain(`email: ${long('ada')}`);
    expect(words).toContain(`email: ${long('bob')}`);
    const wide = signers((await tty(['bundle', 'inspect', b.id, '--no-pager'], 200)).stdout);
    expect(wide).toMatch(/^NAME +ADDRESS +VIA +STATUS/m);
    expect(wide).toContain(long('ada'));
  });

  it('bundle get says the files will not be made, not None', async () => {
    expect((await tty(['bundle', 'get', slug])).stdout).toMatch(/^doc_status +Will not be made \(Declined\)$/m);
  });
});

describe('live lines fit the width', () => {
  it('bundle wait draws one line per Bundle, never longer than the terminal', async () => {
    const r = await esignIn(['bundle', 'wait', slug, '--until', 'complete', '--timeout', '1s'], {
      env,
      tty: true,
      columns: 40,
    });
    const lines = r.stderr
      .split(/[\r\n]/)
      .map((l) => l.replace(/\x1b\[[0-9;]*[A-Za-z]/g, ''))
      .filter(Boolean);
    expect(lines.length).toBeGreaterThan(0);
    const drawn = lines.filter((x) => x.startsWith(slug));
    for (const l of drawn) expect([...l].length).toBeLessThanOrEqual(39);
    const wide = await esignIn(['bundle', 'wait', slug, '--until', 'complete', '--timeout', '1s'], {
      env,
      tty: true,
      columns: 80,
    });
    expect(wide.stderr).toMatch(
      new RegExp(`${slug}  Declined  0/2 signed  \\(waiting for complete, \\d+ s\\)  A rather long`),
    );
  });

  it('the batch bar drops its least useful parts first, the pacing note too, and fits', () => {
    const p = {
      bar: (n: number) => '#'.repeat(n),
      value: 120,
      total: 300,
      counts: 'created 118 skipped 2 failed 0',
      rate: '4.9',
      eta: '37s',
      next: 'next slot in 58 s (quota: 200 creates per hour)',
    };
    for (const columns of [200, 120, 80, 60, 40])
      expect([...barLine(p, columns)].length, String(columns)).toBeLessThanOrEqual(columns - 1);
    expect(barLine(p, 200)).toContain('next slot in 58 s');
    expect(barLine(p, 80)).toMatch(/^Sending #{10,} 120\/300 \| created 118/);
  });
});

describe('the pager', () => {
  const run = async (args: string[], o: { tty: boolean; rows: number; env?: Record<string, string> }) => {
    const paged: { text: string; command: string }[] = [];
    const io = captureIO({
      tty: o.tty,
      rows: o.rows,
      columns: 80,
      env: { ...process.env, NO_COLOR: '1', ...env, ...o.env },
      page: async (text, command) => void paged.push({ text, command }),
    });
    const code = await runCli(args, { io, wiring });
    return { code, paged, stdout: io.stdout() };
  };

  it('takes a list longer than the terminal, with ESIGN_PAGER before PAGER', async () => {
    for (let i = 0; i < 12; i++)
      await esignIn(['person', 'create', '--name', `P${i}`, '--email', `p${i}@example.com`], { env });
    const r = await run(['person', 'list'], { tty: true, rows: 10, env: { ESIGN_PAGER: 'less -S', PAGER: 'more' } });
    expect(r.code).toBe(0);
    expect(r.paged).toHaveLength(1);
    expect(r.paged[0]!.command).toBe('less -S');
    expect(r.paged[0]!.text).toMatch(/^ID +NAME/);
    expect(r.stdout).toBe('');
  });

  it('never with --no-pager, when piped, for a short list, or with PAGER=cat', async () => {
    expect((await run(['person', 'list', '--no-pager'], { tty: true, rows: 10 })).paged).toHaveLength(0);
    expect((await run(['person', 'list'], { tty: false, rows: 10 })).paged).toHaveLength(0);
    expect((await run(['person', 'list'], { tty: true, rows: 200 })).paged).toHaveLength(0);
    expect(
      (await run(['person', 'list'], { tty: true, rows: 10, env: { ESIGN_PAGER: '', PAGER: 'cat' } })).paged,
    ).toHaveLength(0);
  });
});
