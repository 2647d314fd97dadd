// esign bundle events SLUG: the audit trail of a Bundle.
import { timelineStyle } from '../../../app/timeWords.js';
import { eventDetail, eventWord } from '../../../domain/states.js';
import type { BundleEvent } from '../../../service/types.js';
import { fieldColumns, printList } from '../../output/print.js';
import { idVerb } from '../../verb.js';

export const events = idVerb({
  name: 'events',
  arg: 'slug',
  description: 'The audit trail of a Bundle',
  examples: ['esign bundle events 9KwSrpJdyp', 'esign bundle events 9KwSrpJdyp --json'],
  fetch: (s, slug) => Promise.all([s.listBundleEvents(slug), s.getBundle(slug)]),
  show: (f, [list, b]) => {
    const signer = (id?: string | null) => (id ? (b.packets.find((p) => p.id === id)?.name ?? '') : '');
    return printList(
      f,
      list,
      [
        { header: 'TIME', value: (e) => e.timestamp, kind: timelineStyle(list.map((e) => e.timestamp)) },
        ...fieldColumns<BundleEvent>(['kind']),
        {
          header: 'DESCRIPTION',
          value: (e) => e.description,
          // A reason (a decline's, a cancel's) goes whole on a line of its own when the row does not fit.
          overflow: (e) => {
            const detail = eventDetail(e);
            return detail ? { head: eventWord(e.kind), lines: [detail] } : { head: e.description, lines: [] };
          },
        },
        { header: 'PACKET', value: (e) => e.packet_id ?? '', kind: 'id' },
        { header: 'SIGNER', value: (e) => signer(e.packet_id) },
      ],
      (e) => e.kind,
    );
  },
});
