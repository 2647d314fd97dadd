// The state machine in one place: what each status code means to a person, and the sets and
// predicates code asks about (in progress, ended, can be reminded, ...). SQL status sets are
// built from the same arrays, so a rule written here holds in queries too.
import type { BundleStatus, DocStatus, PacketStatus } from './enums.js';

export const BUNDLE_STATE_WORDS: Record<BundleStatus, { word: string; meaning: string }> = {
  ne: { word: 'New', meaning: 'newly created' },
  dr: { word: 'Draft', meaning: 'not yet sent' },
  pr: { word: 'Provisioning', meaning: 'being cloned or processed in the background' },
  pe: { word: 'Pending', meaning: 'queued to be launched while documents are processed' },
  se: { word: 'Sent', meaning: 'sent, not yet started by any signer' },
  st: { word: 'Started', meaning: 'at least one signer has started reviewing' },
  co: { word: 'Complete', meaning: 'all signers have completed' },
  ca: { word: 'Cancelled', meaning: 'cancelled by the sender' },
  ex: { word: 'Expired', meaning: 'expired before completion' },
  fa: { word: 'Failed', meaning: 'an error: the Bundle could not be created or completed' },
  de: { word: 'Declined', meaning: 'at least one signer declined' },
};

export const PACKET_STATE_WORDS: Record<PacketStatus, { word: string; meaning: string }> = {
  ne: { word: 'Waiting', meaning: 'not yet sent: an earlier signer signs first, or the Bundle is not sent' },
  re: { word: 'Ready', meaning: 'ready to be sent' },
  se: { word: 'Sent', meaning: 'the signing request went out' },
  st: { word: 'Started', meaning: 'the signer opened the documents' },
  ca: { word: 'Cancelled', meaning: 'the Bundle was cancelled, or this signer declined (the Bundle is then Declined)' },
  ex: { word: 'Expired', meaning: 'the Bundle expired' },
  co: { word: 'Complete', meaning: 'the signer finished' },
  fa: { word: 'Failed', meaning: 'an error stopped this signer' },
  ra: { word: 'Reassigned', meaning: 'the signer handed their turn to another person' },
};

export const DOC_STATE_WORDS: Record<DocStatus, { word: string; meaning: string }> = {
  no: { word: 'Not yet made', meaning: 'no files generated yet' },
  pe: { word: 'Pending', meaning: 'files are being generated' },
  di: { word: 'Outdated', meaning: 'interim files are older than the latest signature' },
  in: { word: 'Interim', meaning: 'interim files of an unfinished Bundle are ready' },
  fi: { word: 'Final', meaning: 'the final signed files are ready' },
};

/** Signers are working on it: sent and not yet started, or started. */
export const IN_PROGRESS: readonly BundleStatus[] = ['se', 'st'];
/**
 * The states the spec names terminal: the sender can do nothing more to the Bundle (cancel, expire
 * and interim files answer 409). Declined is deliberately not one (spec, "States and transitions"):
 * a declined Bundle can still be cancelled or expired, and its interim files made.
 */
export const TERMINAL: readonly BundleStatus[] = ['co', 'ca', 'ex', 'fa'];
/**
 * Ended: no signer acts any more (no signing, reminders, signer changes; waits stop; a person has
 * no open work in it). The terminal states plus Declined, as nobody signs after a decline.
 */
export const ENDED: readonly BundleStatus[] = [...TERMINAL, 'de'];

/** Bundles that `send` takes: drafts and pending Bundles. */
const SENDABLE: readonly BundleStatus[] = ['dr', 'pe'];
export const isSendable = (s: string): boolean => (SENDABLE as readonly string[]).includes(s);
/** Bundles that `PATCH /bundles/{slug}/` takes: drafts and sent Bundles (a 400 otherwise, as the service answers). */
const UPDATABLE: readonly BundleStatus[] = ['dr', 'se'];
export const isUpdatable = (s: string): boolean => (UPDATABLE as readonly string[]).includes(s);
/** Bundles that `DELETE /bundles/{slug}/` takes: drafts only (cancel the others). */
export const isDeletable = (s: string): boolean => s === 'dr';
export const isInProgress = (s: string): boolean => (IN_PROGRESS as readonly string[]).includes(s);
export const isTerminal = (s: string): boolean => (TERMINAL as readonly string[]).includes(s);
export const isEnded = (s: string): boolean => (ENDED as readonly string[]).includes(s);

/** A packet whose signer has nothing left to do. */
export const PACKET_DONE: readonly PacketStatus[] = ['co', 'ra', 'ca', 'ex', 'fa'];
export const isPacketDone = (s: string): boolean => (PACKET_DONE as readonly string[]).includes(s);

/** `('se', 'st')`: a status set as an SQL list, built from the arrays above (codes are fixed literals). */
export const sqlSet = (codes: readonly string[]): string => `(${codes.map((c) => `'${c}'`).join(', ')})`;

const lookup = <K extends string>(table: Record<K, { word: string }>, code: string | null | undefined): string =>
  code && code in table ? table[code as K].word : (code ?? '');

/**
 * A signer's state for a person, in its Bundle. A declining signer's packet is `ca` on the wire (the
 * packet enum has no "declined"); in a Declined Bundle that cancelled packet is the signer who declined.
 */
export const signerStateWord = (packetStatus: string, bundleStatus: string): string =>
  packetStatus === 'ca' && bundleStatus === 'de' ? 'Declined' : lookup(PACKET_STATE_WORDS, packetStatus);

/** "Sent", "Complete", ...: for people; codes stay in --json and piped output. */
export const bundleStateWord = (code: string | null | undefined) => lookup(BUNDLE_STATE_WORDS, code);
export const packetStateWord = (code: string | null | undefined) => lookup(PACKET_STATE_WORDS, code);
export const docStateWord = (code: string | null | undefined) => lookup(DOC_STATE_WORDS, code);

/** The code of the Bundle error that says its signed files could not be made (they are not tried again). */
export const FILES_FAILED = 'files_failed';

/**
 * A Bundle's signed files in words: "Not yet made" only while they still may be; an ended Bundle that
 * was not completed will never have them ("Will not be made (Declined)").
 */
export function signedFilesWord(bundle: {
  status: string;
  doc_status: string | null | undefined;
  errors?: readonly { code?: string }[];
}): string {
  // Its files failed for good: the doc_status stays where the attempt left it (pending).
  if (bundle.doc_status !== 'fi' && bundle.errors?.some((e) => e.code === FILES_FAILED))
    return 'Could not be made (see its error)';
  if ((bundle.doc_status ?? 'no') !== 'no') return docStateWord(bundle.doc_status);
  if (isEnded(bundle.status) && bundle.status !== 'co') return `Will not be made (${bundleStateWord(bundle.status)})`;
  return docStateWord(bundle.doc_status);
}

/** What a message was, for people ("signing request", "docs ready"); the code stays in piped output. */
export const messageKindWord = (kind: string): string => kind.replace(/_/g, ' ');

/** Signers whose turn it is: every unfinished one, or with `in_order` those of the lowest order still unfinished. */
export function signersWhoseTurnItIs<P extends { status: string; order: number }>(inOrder: boolean, packets: P[]): P[] {
  const open = packets.filter((p) => !isPacketDone(p.status));
  if (!inOrder || !open.length) return open;
  const first = Math.min(...open.map((p) => p.order));
  return open.filter((p) => p.order === first);
}

/** The Bundle audit event codes (GET /bundles/{slug}/events/ `kind`). The spec shows `bc` and `bl`; the rest are esign's. */
export const EVENT_WORDS = {
  bc: 'Bundle created',
  bd: 'Bundle saved as a draft',
  dp: 'Document processed',
  bl: 'Bundle launched: sent to signers',
  bu: 'Bundle updated',
  ta: 'Tags added',
  tr: 'Tags removed',
  bx: 'Bundle cancelled',
  bf: 'Bundle failed',
  be: 'Bundle expired',
  bk: 'Bundle completed',
  fr: 'Signed documents and Certificates of Evidence ready',
  ff: 'Signed documents and Certificates of Evidence could not be made',
  ns: 'Signing request sent',
  pr: 'Reminder sent',
  pu: 'Signer details updated',
  eu: 'Embedded signing URL created',
  pv: 'Signer viewed the documents',
  ps: 'Signer completed',
  pd: 'Signer declined',
  pa: 'Signer reassigned',
  mw: 'Message withheld',
} as const;

/**
 * A webhook event's state in one word, the same in every door: Delivered, Queued (no attempt yet),
 * Failing (a retry is due, or the backend does not say), Failed (no retry left).
 */
export function webhookEventStateWord(e: {
  success: boolean;
  deliveries: readonly unknown[];
  next_attempt_at?: string | null;
}): 'Delivered' | 'Queued' | 'Failing' | 'Failed' {
  if (e.success) return 'Delivered';
  if (!e.deliveries.length) return 'Queued';
  return e.next_attempt_at === null ? 'Failed' : 'Failing';
}

export const eventWord = (code: string | null | undefined): string =>
  code && code in EVENT_WORDS ? EVENT_WORDS[code as keyof typeof EVENT_WORDS] : (code ?? '');

/** What an audit event says after its own words ("Signer declined: wrong unit" -> "wrong unit"). */
export function eventDetail(e: { kind: string; description: string }): string {
  const word = eventWord(e.kind);
  return e.description.startsWith(`${word}: `) ? e.description.slice(word.length + 2) : '';
}

/** The states `esign bundle wait --until` knows. */
export const WAIT_TARGETS = ['sent', 'started', 'complete', 'docs-ready', 'ended'] as const;
export type WaitTarget = (typeof WAIT_TARGETS)[number];

/** What a waiter reads of a Bundle (the API object has all of it). */
interface WaitView {
  status: string;
  sent: string | null;
  docs_ready: boolean;
  doc_status: string;
  packets: { status: string; last_accessed_at: string | null }[];
}

/** Has the Bundle reached (or passed) the target? */
export function reachedTarget(target: WaitTarget, b: WaitView): boolean {
  switch (target) {
    case 'sent':
      return b.sent !== null || ['se', 'st', 'co', 'de'].includes(b.status);
    case 'started':
      return (
        ['st', 'co'].includes(b.status) ||
        b.packets.some((p) => p.last_accessed_at !== null || ['st', 'co', 'de'].includes(p.status))
      );
    case 'complete':
      return b.status === 'co';
    case 'docs-ready':
      return b.status === 'co' && (b.docs_ready || b.doc_status === 'fi');
    case 'ended':
      return isEnded(b.status);
  }
}

/** The Bundle ended without reaching the target: waiting longer cannot help. */
export const cannotReach = (target: WaitTarget, b: WaitView): boolean =>
  !reachedTarget(target, b) && isEnded(b.status) && !(target === 'docs-ready' && b.status === 'co');
