// Asking the person over /mcp, which keeps no session: what a client declared at initialize comes
// back with each request in the session id it was given (the id names the capability, nothing is
// stored), and a question the server puts to the client (elicitation, on the call's SSE stream) is
// answered by the client in a POST of its own, routed here to the call that waits for it. The ids of
// those questions are made unique across all calls in flight, and only the key that made the call
// may answer it.
import { randomUUID } from 'node:crypto';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ClientCapabilities, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The session id given to a client that declared form elicitation: the mark, then a random part. */
const ASKS = 'ask1.';

/** The session id for a client whose initialize declared these capabilities (none: no session id). */
export function sessionIdFor(initialize: unknown): string | undefined {
  const caps = (initialize as { params?: { capabilities?: ClientCapabilities } } | undefined)?.params?.capabilities;
  return elicitsForm(caps) ? `${ASKS}${randomUUID()}` : undefined;
}

/** Form elicitation declared: `{form: {}}`, or `{}` (before modes, form was the only one). */
const elicitsForm = (caps: ClientCapabilities | undefined) =>
  Boolean(caps?.elicitation && (caps.elicitation.form || !caps.elicitation.url));

/** What a request's session id says the client declared. */
export const capabilitiesOf = (sessionId: unknown): ClientCapabilities | undefined =>
  typeof sessionId === 'string' && sessionId.startsWith(ASKS) ? { elicitation: { form: {} } } : undefined;

interface Waiting {
  owner: string;
  id: string | number;
  deliver: (m: JSONRPCMessage) => void;
}

/** Questions put to clients and not yet answered, by the unique id they went out with. */
const waiting = new Map<string, Waiting>();

const isRequest = (m: JSONRPCMessage): m is JSONRPCMessage & { id: string | number; method: string } =>
  'method' in m && 'id' in m;
const isResponse = (m: unknown): m is { id: string | number } =>
  Boolean(m) &&
  typeof m === 'object' &&
  !('method' in (m as object)) &&
  ('result' in (m as object) || 'error' in (m as object));

/**
 * The transport's questions to the client go out under ids unique to this server (`owner`: the key
 * that made the call); returns the function that forgets them when the call is over.
 */
export function routeAnswers(transport: Transport, owner: string): () => void {
  const mine = new Set<string>();
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    if (!isRequest(message)) return send(message, options);
    const unique = `esign-${randomUUID()}`;
    mine.add(unique);
    waiting.set(unique, {
      owner,
      id: message.id,
      deliver: (answer) => transport.onmessage?.({ ...answer, id: message.id } as JSONRPCMessage),
    });
    return send({ ...message, id: unique }, options);
  };
  return () => {
    for (const id of mine) waiting.delete(id);
  };
}

/** Whether a POSTed body is only answers to questions (the client's side of an elicitation). */
export function onlyAnswers(body: unknown): body is { id: string | number }[] | { id: string | number } {
  const all = Array.isArray(body) ? body : [body];
  return all.length > 0 && all.every(isResponse);
}

/** Hands each answer to the call waiting for it; false when one has none (or another key's). */
export function deliverAnswers(body: unknown, owner: string): boolean {
  const all = (Array.isArray(body) ? body : [body]) as (JSONRPCMessage & { id: string | number })[];
  const found = all.map((m) => waiting.get(String(m.id)));
  if (found.some((w) => !w || w.owner !== owner)) return false;
  all.forEach((m, i) => {
    waiting.delete(String(m.id));
    found[i]!.deliver(m);
  });
  return true;
}
