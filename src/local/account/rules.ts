// Account rules several operations apply alike, each written once: which team a request may name,
// and whether a field definition may carry `v_regex` (Bundle documents and Document Templates).
import type { FieldErrors } from '../../service/errors.js';
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
  if (gated && !account.has('teams')) {
    errs.add(field, 'Assigning a team requires the Teams account feature.');
    return false;
  }
  if (id !== null && !account.team(id)) {
    errs.add(field, `Team "${id}" does not exist in this account.`);
    return false;
  }
  return true;
}

export type RegexCheck = (pattern: string, field: string, errs: FieldErrors) => void;

/**
 * The `v_regex` gate: the field regex validation feature, and an expression RE2 compiles (the
 * signing page matches with RE2). re2js is loaded only when the feature is on and some field has one.
 */
export async function regexCheck(account: AccountStore, anyRegex: boolean): Promise<RegexCheck> {
  // The check is only called for a v_regex, so without one the feature is not read.
  const allowed = anyRegex && account.has('regex_validation');
  const re2 = allowed ? (await import('re2js')).RE2JS : undefined;
  return (pattern, field, errs) => {
    if (!allowed) return errs.add(field, 'v_regex requires the field regex validation account feature.');
    try {
      re2!.compile(pattern);
    } catch (e) {
      errs.add(field, `Not a valid RE2 expression: ${(e as Error).message}`);
    }
  };
}
