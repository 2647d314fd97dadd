// The rules that make a signer deliverable, shared by Bundle creation and packet PATCH: the engine
// applies them with its account; a client checking a create before sending applies the same ones
// with the account's facts read once (src/app/createCheck.ts).
import type { AccountFeature } from './enums.js';
import type { FieldErrors } from './errors.js';
import { contactProblems } from './delivery.js';

/** What these rules read of an account: its feature switches and its users' verified addresses. */
export interface AccountView {
  has(feature: AccountFeature): boolean;
  isVerifiedAddress(email: string): boolean;
}

export interface Delivery {
  deliver_via: 'email' | 'phone' | 'embed';
  email: string | null | undefined;
  phone: string | null | undefined;
  auth_sms: boolean | undefined;
  /** Whether this request sets signing_complete_redirect. */
  setsRedirect: boolean;
}

/** How a user's address becomes one a test Bundle may reach: on esign's engine, and on the hosted service. */
const HOW_TO_VERIFY = (address: string) =>
  `verify it as a user of the account (esign local users add ${address}, or esign local users verify ${address}; ` +
  "on the hosted service, in the account's user settings), or deliver by embed";

const TEST_MESSAGE = (address: string) =>
  `Test Bundles are delivered only to verified email addresses of account users; ${address} is not one: ${HOW_TO_VERIFY(address)}.`;

/** Adds an error (at `prefix` + field) for each way the signer could not be reached as asked. */
export function checkDelivery(
  d: Delivery,
  isTest: boolean,
  account: AccountView,
  errs: FieldErrors,
  prefix = '',
): void {
  for (const p of contactProblems(d)) errs.add(`${prefix}${p.field}`, p.message);
  if (d.setsRedirect && !account.has('signing_brands'))
    errs.add(
      `${prefix}signing_complete_redirect`,
      'signing_complete_redirect requires the Signing Brands account feature.',
    );
  if (!isTest) return;
  // The spec limits a test Bundle's delivery, not who may sign it: an embedded signer is delivered
  // nothing, so any address is taken (messages to it are withheld, messages/testDelivery.ts).
  if (d.deliver_via === 'phone')
    errs.add(
      `${prefix}deliver_via`,
      'Test Bundles are delivered only to verified email addresses of account users, never by SMS: deliver by email to a verified user, or by embed.',
    );
  else if (d.deliver_via === 'email' && d.email && !account.isVerifiedAddress(d.email))
    errs.add(`${prefix}email`, TEST_MESSAGE(d.email));
}

/** cc_sender copies the requester: on a test Bundle only when that is a verified account address. */
export function checkTestSender(
  requesterEmail: string,
  isTest: boolean,
  account: AccountView,
  errs: FieldErrors,
): void {
  if (isTest && !account.isVerifiedAddress(requesterEmail))
    errs.add('cc_sender', `${TEST_MESSAGE(requesterEmail)} (cc_sender copies the requester).`);
}

/** Copies of a test Bundle go only to verified account addresses too. */
export function checkTestCopies(
  cc: string[] | undefined,
  isTest: boolean,
  account: AccountView,
  errs: FieldErrors,
): void {
  if (!isTest) return;
  (cc ?? []).forEach((address, i) => {
    if (!account.isVerifiedAddress(address)) errs.add(`cc_emails[${i}]`, TEST_MESSAGE(address));
  });
}
