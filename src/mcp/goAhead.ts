// The go-ahead for a change that destroys, changes what exists or reaches people. Where the client
// can ask its user (elicitation), the person is asked with the exact effect, whatever the agent
// passed; elsewhere the agent passes `confirm: true`, and without it the answer says what the call
// would do. A change that cannot happen says so instead of asking.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { type ClientCapabilities, ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { ours, say } from './prose.js';
import { type Effect, type Json, Refusal } from './tool.js';

export const CONFIRM_DESCRIPTION = 'true: go ahead';

/** Asks the person; true when they agreed. */
export type Ask = (effect: Effect) => Promise<boolean>;

const refused = (how: string, e: Effect): Json => ({
  error: { code: 'refused', refused: how, would: e.action, ...(e.target ? { target: e.target } : {}) },
});

export async function goAhead(ask: Ask | undefined, args: Json, e: Effect): Promise<void> {
  if (e.impossible)
    throw new Refusal(say`Not possible: ${ours(e.impossible)} Nothing was changed.`, refused('impossible', e));
  if (ask) {
    if (await ask(e)) return;
    throw new Refusal(
      say`Not done: the person was asked (through the client) whether to ${ours(e.action)}, and did not agree. Nothing was changed.`,
      refused('declined', e),
    );
  }
  if (args.confirm === true) return;
  throw new Refusal(
    say`Not done: this would ${ours(e.action)}. Nothing was changed. Call again with confirm: true to do it.`,
    refused('confirm', e),
  );
}

/** The question put to the person: the effect, and what it touches quoted as data. */
function question(e: Effect): string {
  const what = e.target ? `\nWhat it touches (as recorded, quoted): ${JSON.stringify(e.target)}` : '';
  const people = e.reachesPeople ? '\nThis sends email or SMS to the signers.' : '';
  return `An AI assistant asks to ${e.action}.${what}${people}\nGo ahead?`;
}

/**
 * Elicitation through `server`, when the connected client declares it (form mode): at initialize on
 * this connection, or as `declared` where the transport keeps no session (/mcp). Asked with the SDK's
 * public request(): its elicitInput checks only what this server instance saw at initialize, which
 * a sessionless request never brings, and the SDK has no public way to tell it.
 */
export function askThrough(
  server: Server,
  relatedRequestId: string | number,
  signal: AbortSignal,
  declared?: ClientCapabilities,
): Ask | undefined {
  const elicitation = (declared ?? server.getClientCapabilities())?.elicitation;
  if (!elicitation?.form) return undefined;
  return async (e) => {
    const r = await server.request(
      {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: question(e),
          requestedSchema: {
            type: 'object',
            properties: { confirm: { type: 'boolean', title: 'Go ahead', default: false } },
            required: ['confirm'],
          },
        },
      },
      ElicitResultSchema,
      { relatedRequestId, signal },
    );
    // Only a yes in the schema's own terms (a boolean true) is a go-ahead.
    return r.action === 'accept' && r.content?.confirm === true;
  };
}
