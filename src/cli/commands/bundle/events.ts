// esign bundle events SLUG: the audit trail of a Bundle.
import type { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { printList } from '../../output/print.js';
import type { Action } from '../../run.js';

export interface EventsOptions {
  slug: string;
}

export function register(bundle: Command, action: Action): void {
  bundle
    .command('events <slug>')
    .description('The audit trail of a Bundle')
    .action(action(async (f, _o: object, slug: string) => run(f, { slug })));
}

export async function run(f: Factory, o: EventsOptions): Promise<void> {
  const service = await f.service();
  const [events, b] = await Promise.all([service.listBundleEvents(o.slug), service.getBundle(o.slug)]);
  const signer = (id?: string | null) => (id ? (b.packets.find((p) => p.id === id)?.name ?? '') : '');
  await printList(
    f,
    events,
    [
      { header: 'TIME', value: (e) => e.timestamp, kind: 'time' },
      { header: 'KIND', value: (e) => e.kind },
      { header: 'DESCRIPTION', value: (e) => e.description },
      { header: 'PACKET', value: (e) => e.packet_id ?? '', kind: 'id' },
      { header: 'SIGNER', value: (e) => signer(e.packet_id) },
    ],
    (e) => e.kind,
  );
}
