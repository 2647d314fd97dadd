// What a change would do, told before it is done: which Bundle or signer (by id), its state, and
// whether the change can happen at all (the state rules of domain/states.ts). Labels and names go
// in `target`, as data.
import { ApiError } from '../domain/errors.js';
import type { EsignService } from '../service/service.js';
import {
  bundleStateWord,
  isDeletable,
  isInProgress,
  isPacketDone,
  isSendable,
  isTerminal,
  isUpdatable,
  signerStateWord,
} from '../domain/states.js';
import type { BundleStatus } from '../domain/enums.js';
import type { Bundle } from '../service/types.js';
import { count, ours, say } from './prose.js';
import type { Effect, Json } from './tool.js';

/** What a Bundle is, as data for a preview. */
const bundleTarget = (b: Bundle): Json => ({
  bundle: b.id,
  label: b.label,
  state: bundleStateWord(b.status),
  signers: b.packets.map((p) => ({
    id: p.id,
    name: p.name,
    address: p.deliver_via === 'phone' ? p.phone : p.email,
    state: signerStateWord(p.status, b.status),
  })),
});

/** The rule a Bundle change follows: which states allow it, and the rule in words. */
interface BundleRule {
  verb: string;
  allowed?: (status: string) => boolean;
  rule?: string;
  reachesPeople?: boolean;
  /** The state the change leaves: a Bundle already in it is answered as it is (a repeat changes nothing). */
  done?: BundleStatus;
}

const NOT_ENDED = (verb: string) => `only a Bundle that has not ended can be ${verb}`;

export const BUNDLE_RULES: Record<string, BundleRule> = {
  cancelBundle: { verb: 'cancel', allowed: (s) => !isTerminal(s), rule: NOT_ENDED('cancelled'), done: 'ca' },
  expireBundle: { verb: 'expire', allowed: (s) => !isTerminal(s), rule: NOT_ENDED('expired'), done: 'ex' },
  deleteBundle: { verb: 'delete', allowed: isDeletable, rule: 'only a draft can be deleted (cancel the others)' },
  sendBundle: {
    verb: 'send to its signers',
    allowed: isSendable,
    rule: 'only a draft can be sent',
    reachesPeople: true,
  },
  updateBundle: { verb: 'update', allowed: isUpdatable, rule: 'only a draft or a sent Bundle can be updated' },
  generateInterimFiles: {
    verb: 'generate the interim files of',
    allowed: (s) => !isTerminal(s),
    rule: 'only a Bundle that has not ended gets interim files',
  },
  addBundleTags: { verb: 'add tags to' },
  removeBundleTags: { verb: 'remove tags from' },
};

/** The Bundle when it is already where `rule` would leave it (the change was made before), else undefined. */
export async function alreadyDone(service: EsignService, slug: string, rule: BundleRule): Promise<Bundle | undefined> {
  if (!rule.done) return undefined;
  const b = await service.getBundle(slug);
  return b.status === rule.done ? b : undefined;
}

/** The effect of `rule` on Bundle `slug`, read first: its state decides whether it can happen. */
export async function bundleEffect(service: EsignService, slug: string, rule: BundleRule): Promise<Effect> {
  const b = await service.getBundle(slug);
  const state = bundleStateWord(b.status);
  const action = say`${ours(rule.verb)} Bundle ${b.id} (${ours(state)}, ${count(b.packets.length, 'signer')})`;
  const impossible =
    rule.allowed && !rule.allowed(b.status)
      ? say`Bundle ${b.id} is ${ours(state)}: ${ours(rule.rule ?? '')}.`
      : undefined;
  return { action, target: bundleTarget(b), reachesPeople: rule.reachesPeople, ...(impossible ? { impossible } : {}) };
}

/** The effect of a signer's or sender's act on packet `id` (remind, view, sign, decline, reassign). */
export async function packetEffect(
  service: EsignService,
  id: string,
  verb: string,
  reachesPeople: boolean,
): Promise<Effect> {
  const p = await service.getPacket(id);
  let bundle: Bundle | undefined;
  if (service.bundleOfPacket)
    bundle = await service.getBundle(await service.bundleOfPacket(id)).catch((e) => {
      if (e instanceof ApiError) return undefined;
      throw e;
    });
  const state = signerStateWord(p.status, bundle?.status ?? '');
  const action = bundle
    ? say`${ours(verb)} (packet ${p.id}, signer ${ours(state)}, in Bundle ${bundle.id})`
    : say`${ours(verb)} (packet ${p.id}, signer ${ours(state)})`;
  let impossible: string | undefined;
  if (isPacketDone(p.status)) impossible = say`the signer of packet ${p.id} is ${ours(state)}: nothing is left to do.`;
  else if (bundle && !isInProgress(bundle.status))
    impossible = say`Bundle ${bundle.id} is ${ours(bundleStateWord(bundle.status))}: signers act only on a sent or started Bundle.`;
  const target = {
    packet: p.id,
    name: p.name,
    address: p.deliver_via === 'phone' ? p.phone : p.email,
    state,
    ...(bundle ? { bundle: bundle.id, label: bundle.label } : {}),
  };
  return { action, target, reachesPeople, ...(impossible ? { impossible } : {}) };
}
