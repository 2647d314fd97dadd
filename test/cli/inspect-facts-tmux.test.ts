// bundle inspect at a real 80x24 terminal (tmux, the built binary): the facts first (state, signers
// in their order with whole addresses, who waits for whom, reminders sent and when the next may go,
// files), then webhooks and the timeline; one pager run from the top when taller than the screen,
// none when it fits; signing links cut short.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shownIn } from '../timeShown.js';
import { LocalEngine } from '../../src/local/engine.js';
import { bundleRequest, tempDir } from '../helpers.js';
import { esignLine, sh, skipTmux, useTmux } from './tmux.js';

const data = tempDir('esign-inspect-facts-');
const { run } = useTmux();
const MARC = 'marc-andre.dupont@northwind-legal.example.com';
const JANE = 'jane.doe@northwind-legal-and-partners.example.com';
let slug = '';
let remindedAt = '';
let token = '';

beforeAll(async () => {
  const engine = new LocalEngine({ dataDir: data.dir });
  const b = await engine.createBundle(
    bundleRequest({
      label: 'Lease 12B',
      in_order: true,
      packets: [
        { key: 'm', name: 'Marc-André Dupont', email: MARC, order: 1 },
        { key: 'j', name: 'Jane Doe', email: JANE, order: 2 },
      ],
    }),
  );
  slug = b.id;
  await engine.remindPacket(b.packets[0]!.id);
  await engine.viewPacket(b.packets[0]!.id);
  const events = await engine.listBundleEvents(slug);
  remindedAt = events.find((e) => e.kind === 'pr')!.timestamp;
  const messages = await engine.listBundleMessages(slug);
  token = /\/sign\/([A-Za-z0-9_-]+)/.exec(messages[0]!.body)![1]!;
  await engine.close();
});
afterAll(() => data.cleanup());

const tty = (args: string, env = '', size?: [number, number]) => run(esignLine(data.dir, env, args), size);

describe.skipIf(skipTmux)('bundle inspect at 80x24', () => {
  it('puts the facts first: signers in order with whole addresses, waits, reminders, then files, webhooks, timeline', async () => {
    const zone = 'Asia/Tokyo';
    const lines = await tty(`bundle inspect ${slug} --no-pager`, `TZ=${zone}`);
    for (const l of lines) expect([...l].length, l).toBeLessThanOrEqual(80);
    const at = (re: RegExp) => lines.findIndex((l) => re.test(l));
    expect(at(/^status +Started$/)).toBeLessThan(at(/^Signers \(in order\)$/));
    expect(at(/^Signers \(in order\)$/)).toBeLessThan(at(/^Files$/));
    expect(at(/^Files$/)).toBeLessThan(at(/^Timeline \(\d+ entries, oldest first\)$/));
    // Whole addresses, each on a line (never cut, never broken across lines).
    expect(lines).toContain(`    email: ${MARC}`);
    expect(lines).toContain(`    email: ${JANE}`);
    expect(lines.filter((l) => l.includes('northwind') && l.includes('…'))).toEqual([]);
    expect(lines.some((l) => /^1 +Marc-André Dupont +email +Started /.test(l))).toBe(true);
    expect(lines.some((l) => /^2 +Jane Doe +email +Waiting /.test(l))).toBe(true);
    expect(lines.join('\n')).toContain('Jane Doe: signs in order: waits for Marc-André Dupont (viewed ');
    // Reminders: how many, when, and when the next may go by the once-an-hour rule, in the terminal's zone.
    const marc = lines
      .slice(at(/^Marc-André Dupont: reminders:/))
      .slice(0, 3)
      .join(' ')
      .replace(/\s+/g, ' ');
    const sent = Date.parse(remindedAt);
    expect(marc).toContain(
      `Marc-André Dupont: reminders: 1 sent, the last ${shownIn(sent, zone)}; the next can be sent after ${shownIn(sent + 3600_000, zone)} (once an hour); next automatic `,
    );
    const jane = lines
      .slice(at(/^Jane Doe: reminders:/))
      .slice(0, 2)
      .join(' ')
      .replace(/\s+/g, ' ');
    expect(jane).toContain('Jane Doe: reminders: none sent; none can go: not their turn yet');
    // The timeline's addresses are facts of their own lines; a signing link is cut short.
    expect(lines).toContain(`    to: ${MARC}`);
    const text = lines.join('\n');
    expect(text).not.toContain(token);
    expect(text).toContain(`/sign/${token.slice(0, 4)}…`);
    expect(text).toContain('Signing links are cut short here (whoever holds one signs): --json shows them');
  }, 60_000);

  it('goes through the pager once, from its top, when taller than the screen; not when it fits', async () => {
    // The pager keeps what it is given: the screen then shows none of the output.
    const kept = (n: string) => join(data.dir, `paged-${n}.txt`);
    const pager = (n: string) => `ESIGN_PAGER=${sh(`cat > ${kept(n)}`)}`;
    const shown = await tty(`bundle inspect ${slug} 2>/dev/null`, pager('short'));
    expect(shown).toEqual([]);
    const paged = readFileSync(kept('short'), 'utf8').split('\n');
    expect(paged[0]).toMatch(/^id +\S+$/);
    expect(paged.some((l) => /^Signers \(in order\)$/.test(l))).toBe(true);
    expect(paged.some((l) => /^Timeline \(/.test(l))).toBe(true);
    const tall = await tty(`bundle inspect ${slug} 2>/dev/null`, pager('tall'), [80, 200]);
    expect(tall[0]).toMatch(/^id +\S+$/);
    expect(existsSync(kept('tall'))).toBe(false);
  }, 60_000);
});

describe.skipIf(skipTmux)('a timeline of several days at 80x24', () => {
  const days = tempDir('esign-inspect-days-');
  let id = '';
  let times: string[] = [];
  beforeAll(async () => {
    const engine = new LocalEngine({ dataDir: days.dir });
    const b = await engine.createBundle(
      bundleRequest({ label: 'Two days', packets: [{ key: 'a', name: 'Ana Ruiz', email: 'ana@example.com' }] }),
    );
    id = b.id;
    engine.clock.advance(26 * 3600_000);
    await engine.remindPacket(b.packets[0]!.id);
    times = (await engine.listBundleEvents(id)).map((e) => e.timestamp);
    await engine.close();
  });
  afterAll(() => days.cleanup());

  /** "Dec 03 10:42:05" in `zone`, worked out apart from the code under test. */
  const datedIn = (iso: string, zone: string) => {
    const p = Object.fromEntries(
      new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        month: 'short',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        hourCycle: 'h23',
      })
        .formatToParts(new Date(iso))
        .map((x) => [x.type, x.value]),
    );
    return `${p.month} ${p.day} ${p.hour}:${p.minute}:${p.second}`;
  };

  it('dates every row, the last day too, in the terminal zone (bundle inspect and bundle events)', async () => {
    const zone = 'America/Los_Angeles';
    for (const cmd of [`bundle inspect ${id} --no-pager`, `bundle events ${id}`]) {
      const lines = await run(esignLine(days.dir, `TZ=${zone}`, cmd));
      const text = lines.join('\n');
      // The first and the last event (a day and two hours apart), each with its date.
      expect(text, cmd).toContain(datedIn(times[0]!, zone));
      expect(text, cmd).toContain(datedIn(times.at(-1)!, zone));
      const rows = lines.filter((l) => /\b\d\d:\d\d:\d\d\b/.test(l) && /Reminder sent|Bundle created/.test(l));
      expect(rows.length, cmd).toBeGreaterThanOrEqual(2);
      for (const row of rows) expect(row, cmd).toMatch(/^[A-Z][a-z]{2} \d\d \d\d:\d\d:\d\d /);
    }
  }, 60_000);
});
