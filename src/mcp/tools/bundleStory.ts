// bundle_story: one Bundle whole, as `esign bundle inspect` tells it (the use case app/inspection):
// its state, signers, one timeline (events, messages sent, webhook deliveries) a page at a time,
// and its files as resource links.
import { z } from 'zod';
import { getBundleOrPacketsBundle } from '../../app/bundleRef.js';
import { inspectBundle, waitsForWords } from '../../app/inspection.js';
import { redactSecretLinks } from '../../app/secretLinks.js';
import { bundleStateWord } from '../../domain/states.js';
import { fitItems } from '../answer.js';
import { cursorArg, nextCursor, offsetOf, pageSizeArg } from '../paging.js';
import { count, ours, say } from '../prose.js';
import { ConciseBundle, DetailedBundle, FORMAT, concise } from '../views.js';
import { FileEntry, fileEntries, fileLinks } from './files.js';
import { serverNow } from './foundSet.js';
import { id, job } from './kit.js';

const Entry = z.object({
  at: z.string(),
  source: z.string(),
  code: z.string(),
  signer: z.string().nullable(),
  what: z.string(),
});

export const bundleStory = job({
  name: 'bundle_story',
  title: "A Bundle's story",
  description:
    'One Bundle whole: state, signers, a timeline (events, email/SMS sent, webhook deliveries) and its files ' +
    '(resource links, SHA-256). Use it for "why has X not signed?" or before changing a Bundle. id: a slug or a packet id. ' +
    'Signing links are cut short unless signing_links: true.',
  uses: ['getBundle', 'listBundleEvents', 'listWebhooks', 'listWebhookEvents', 'getBundleFiles'],
  input: z.strictObject({
    id,
    response_format: FORMAT,
    page_size: pageSizeArg(40, 200).describe('Timeline entries per answer (default 40)'),
    cursor: cursorArg,
    signing_links: z.boolean().optional(),
  }),
  output: z.object({
    bundle: z.union([ConciseBundle.omit({ signers: true }), DetailedBundle]),
    signers: z.array(z.looseObject({ id: z.string(), name: z.string(), status: z.string() })),
    signers_left_out: z.int(),
    timeline: z.array(Entry),
    timeline_total: z.int(),
    next_cursor: z.string().nullable(),
    files: z.array(FileEntry),
    notes: z.array(z.string()),
    now: z.string(),
  }),
  async run(a, { service }) {
    const story = await inspectBundle(service, await getBundleOrPacketsBundle(service, a.id));
    const slug = story.bundle.id;
    const files = fileEntries(slug, story.files ?? []);
    const notes = [story.files_note, story.links_note, ...story.unavailable.map((u) => `Not available: ${u}`)];
    const offset = offsetOf(a.cursor);
    // A live signing link lets whoever reads the answer sign: shown whole only when asked for.
    const page = story.timeline.slice(offset, offset + a.page_size).map(({ at, source, code, signer, what }) => ({
      at,
      source,
      code,
      signer,
      what: a.signing_links ? what : redactSecretLinks(what),
    }));
    const total = story.timeline.length;
    const { signers: _all, ...summary } = concise(story.bundle);
    const bundle = a.response_format === 'detailed' ? story.bundle : summary;
    // The timeline gives way first; a Bundle with very many signers shows the first of them.
    // States in words, and why a signer waits, for an agent that tells a person.
    const people = story.signers.map(({ status: _code, state, waits_for, ...s }) => ({
      ...s,
      status: state,
      waiting: waitsForWords(waits_for) || null,
    }));
    // Why someone has not signed is the question this tool answers most: said, not only in the data.
    const waits = people.filter((p) => p.waiting).length;
    const waiting = waits
      ? say`; ${count(waits, 'signer')} ${ours(waits === 1 ? 'waits' : 'wait')} for another to sign first (signers[].waiting names whom)`
      : '';
    return fitItems(people, (signers, signersLeftOut) =>
      fitItems(page, (shown, leftOut) => {
        const next = nextCursor(offset, shown.length, total);
        const more = next ? say` More of the timeline: the same call with cursor: "${next}".` : '';
        const cut = leftOut ? say` (${leftOut} left out to stay under the answer limit)` : '';
        const few = signersLeftOut
          ? say` ${signersLeftOut} signers are left out to stay under the limit: call_operation getPacket reads one.`
          : '';
        return {
          say: say`Bundle ${slug} is ${ours(bundleStateWord(story.bundle.status))} with ${count(story.signers.length, 'signer')} and ${count(files.length, 'file')}${ours(waiting)}; timeline entries ${offset + 1} to ${offset + shown.length} of ${total}${ours(cut)}.${ours(more)}${ours(few)}`,
          data: {
            bundle,
            signers,
            signers_left_out: signersLeftOut,
            timeline: shown,
            timeline_total: total,
            next_cursor: next,
            files,
            notes: notes.filter((n): n is string => Boolean(n)),
            now: new Date(serverNow(service)).toISOString(),
          },
          links: fileLinks(slug, files),
        };
      }),
    );
  },
});
