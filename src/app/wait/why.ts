// Why a Bundle ended where it did, in one line, from its audit events (signer names, not packet ids).
import type { EsignService } from '../../service/service.js';
import { bundleStateWord, eventDetail, eventWord } from '../../domain/states.js';
import { signerName } from '../inspection.js';
import type { Bundle, BundleEvent } from '../../service/types.js';

const ENDING_EVENTS: Record<string, string> = { de: 'pd', ca: 'bx', ex: 'be', fa: 'bf' };

/** "Declined: Bob Signer declined on 2026-11-23T10:00:00Z: not my contract". */
function whyEnded(b: Bundle, events: BundleEvent[]): string {
  const kind = ENDING_EVENTS[b.status];
  const e = kind ? [...events].reverse().find((x) => x.kind === kind) : undefined;
  const parts: string[] = [bundleStateWord(b.status)];
  let detail = '';
  if (e) {
    detail = eventDetail(e);
    const who = e.packet_id ? `${signerName(b, e.packet_id)} ` : '';
    parts.push(
      `${who}${e.kind === 'pd' ? 'declined' : eventWord(e.kind).toLowerCase()} at ${e.timestamp}${detail ? `: ${detail}` : ''}`,
    );
  }
  // A failure's event already tells its errors: each reason is said once.
  const more = b.errors.map((x) => x.message).filter((m) => !detail.includes(m));
  if (more.length) parts.push(more.join('; '));
  return parts.join(': ');
}

export async function explainEnd(service: EsignService, b: Bundle): Promise<string> {
  const events = await service.listBundleEvents(b.id).catch(() => [] as BundleEvent[]);
  return whyEnded(b, events);
}
