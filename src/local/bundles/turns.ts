// Whose turn it is among a Bundle's signers, and how a signer's packet ended: packet rules built
// on the state module (domain/states.ts), so SQL and code use the same sets.
import { PACKET_STATUSES } from '../../domain/enums.js';
import { PACKET_DONE, isInProgress, isPacketDone, signersWhoseTurnItIs, sqlSet } from '../../domain/states.js';
import type { BundleRow, PacketRow } from './read.js';

/** A signer who still has to act (ne, re, se, st); the others are ended. */
export const isOpenPacket = (p: Pick<PacketRow, 'status'>) => !isPacketDone(p.status);
/** For SQL: packets a cancel or expiry leaves as they are. */
export const ENDED_PACKETS_SQL = sqlSet(PACKET_DONE);
/** For SQL: packets whose signer still has to act. */
export const OPEN_PACKETS_SQL = sqlSet(PACKET_STATUSES.filter((s) => !isPacketDone(s)));

/** The signer has been asked (sent or started) and the Bundle is in progress: a new address means asking again. */
export const isAskedInLiveBundle = (b: Pick<BundleRow, 'status'>, p: Pick<PacketRow, 'status'>) =>
  isInProgress(b.status) && isInProgress(p.status);

/** Why a packet whose signer can no longer act has ended, for messages. */
export function endedAs(p: Pick<PacketRow, 'status'>): string {
  return (
    (
      {
        co: 'completed',
        ca: 'declined or been cancelled',
        ra: 'handed their turn to another signer',
        ex: 'expired',
        fa: 'failed',
      } as Record<string, string>
    )[p.status] ?? p.status
  );
}

/** All unfinished signers, or with `in_order` those of the lowest order still unfinished. */
export function packetsWhoseTurnItIs(b: Pick<BundleRow, 'in_order'>, packets: PacketRow[]): PacketRow[] {
  return signersWhoseTurnItIs(
    b.in_order === 1,
    packets.map((p) => ({ status: p.status, order: p.ord, row: p })),
  ).map((x) => x.row);
}
