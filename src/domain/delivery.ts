// How a signer is reached, as far as the request alone tells: the engine checks these at creation
// (and in a packet PATCH), and `esign batch` checks each row with them before anything is sent, so
// a row that `batch check` passes is never refused for them.

export type DeliverVia = 'email' | 'phone' | 'embed';

export interface Contact {
  deliver_via?: DeliverVia;
  email?: string | null;
  phone?: string | null;
  auth_sms?: boolean;
}

/** deliver_via when the request leaves it out: by email when there is an address, else by phone when there is a number. */
export function deliverVia(c: Contact): DeliverVia {
  return c.deliver_via ?? (c.email ? 'email' : c.phone ? 'phone' : 'email');
}

/** Each way the signer could not be reached as asked: the field to name, and why. */
export function contactProblems(c: Contact): { field: 'email' | 'phone'; message: string }[] {
  const via = deliverVia(c);
  const out: { field: 'email' | 'phone'; message: string }[] = [];
  if (via === 'email' && !c.email)
    out.push({ field: 'email', message: 'An email address is required to deliver by email.' });
  if (via === 'phone' && !c.phone)
    out.push({ field: 'phone', message: 'A phone number is required to deliver by phone.' });
  if (c.auth_sms && !c.phone)
    out.push({ field: 'phone', message: 'A phone number is required for SMS pin authentication (auth_sms).' });
  return out;
}
