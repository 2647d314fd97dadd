// Account rules several operations apply alike, each written once: which team a request may name
// (the `v_regex` gate is src/domain/featureGates.ts: a client checks it too).
import type { FieldErrors } from '../../domain/errors.js';
import { teamsGate } from '../../domain/featureGates.js';
import type { AccountStore } from './account.js';

/**
 * Whether a request may name this team under `field` (`null`: no team), with the problem in `errs`
 * when not. Assigning a Bundle to a team, or taking it off one, needs the Teams feature (`gated`);
 * templates and preparation sessions only name a team that exists.
 */
export function checkTeam(
  account: AccountStore,
  id: string | null,
  field: string,
  errs: FieldErrors,
  gated: boolean,
): boolean {
  const gate = gated ? teamsGate((f) => account.has(f)) : undefined;
  if (gate) {
    errs.add(field, gate);
    return false;
  }
  if (id !== null && !account.team(id)) {
    errs.add(field, `Team "${id}" does not exist in this account.`);
    return false;
  }
  return true;
}
