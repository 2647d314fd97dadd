// PATCH /sandbox/account/: a sandbox's account set up for a test in one transaction (features
// switched, the requester set, users, teams and signing brands added). Additive: what is not named
// stays as it is, and a user already there keeps its name and role (only `verified` is set).
import { inTransaction, type EngineContext } from '../store/context.js';
import type { AccountSetup } from '../../service/types.js';
import type { AccountStore } from './account.js';

export async function setupAccount(ctx: EngineContext, account: AccountStore, body: unknown): Promise<AccountSetup> {
  const { AccountSetupRequest, parseOr400 } = await import('../../domain/schemas.js');
  const req = parseOr400(AccountSetupRequest, body ?? {});
  return inTransaction(ctx, () => {
    const switches = Object.entries(req.features ?? {});
    const on = switches.filter(([, v]) => v).map(([k]) => k);
    const off = switches.filter(([, v]) => !v).map(([k]) => k);
    if (on.length) account.setFeatures(on, true);
    if (off.length) account.setFeatures(off, false);
    if (req.requester_name !== undefined || req.requester_email !== undefined)
      account.update({ requester_name: req.requester_name, requester_email: req.requester_email });
    for (const u of req.users ?? []) {
      if (!account.userByEmail(u.email)) account.addUser({ ...u, verified: u.verified ?? true });
      else if (u.verified !== undefined) account.setUserVerified(u.email, u.verified);
    }
    for (const t of req.teams ?? []) account.addTeam(t);
    for (const b of req.brands ?? []) account.addBrand(b);
    return accountView(account);
  });
}

function accountView(account: AccountStore): AccountSetup {
  const { name, requester_name, requester_email, features } = account.settings();
  return {
    name,
    requester_name,
    requester_email,
    features: [...features],
    users: account.users().map(({ id, email, name, verified, is_admin }) => ({ id, email, name, verified, is_admin })),
    teams: account.teams().map(({ id, name, requester_name, requester_email }) => ({
      id,
      name,
      requester_name,
      requester_email,
    })),
    brands: account.brands().map(({ id, name, redirect_url }) => ({ id, name, redirect_url })),
  };
}
