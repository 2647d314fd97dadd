// Which tools a client gets. The default set is shaped like an agent's jobs (find, tell, send,
// remind, cancel, wait, download, verify, webhook health, resend, templates, the sandbox signer,
// check and send a batch)
// plus call_operation for the rest of the API: few enough to choose from well and cheap to carry
// (a test holds it to 25 tools and 25,000 characters of tools/list). `all`: one tool per operation
// of the table, with the jobs whose names are not an operation's.
import { operationTools } from './operationTools.js';
import type { ToolDef } from './tool.js';
import { bundleStory } from './tools/bundleStory.js';
import { callOperation } from './tools/callOperation.js';
import { cancelBundle, remindSigners, sendDraft } from './tools/change.js';
import { downloadFiles } from './tools/download.js';
import { findBundles } from './tools/findBundles.js';
import { sendForSignature } from './tools/send.js';
import { sendBatchTool } from './tools/sendBatch.js';
import { actAsSigner } from './tools/signer.js';
import { findTemplates } from './tools/templates.js';
import { verifyDocuments } from './tools/verify.js';
import { waitTool } from './tools/wait.js';
import { resendWebhookEvents, webhookHealthTool } from './tools/webhooks.js';

export const TOOL_SETS = ['default', 'all'] as const;
export type ToolSet = (typeof TOOL_SETS)[number];

function jobs(fileAccess: boolean): ToolDef[] {
  return [
    findBundles,
    bundleStory,
    sendForSignature(fileAccess),
    sendDraft,
    remindSigners,
    cancelBundle,
    waitTool,
    downloadFiles(fileAccess),
    verifyDocuments(fileAccess),
    webhookHealthTool,
    resendWebhookEvents,
    findTemplates,
    actAsSigner,
    sendBatchTool(fileAccess),
  ];
}

const made = new Map<string, readonly ToolDef[]>();

/** The tools of `set` for a client with (stdio) or without (HTTP) this machine's files; made once each. */
export function toolsOf(set: ToolSet, fileAccess: boolean): readonly ToolDef[] {
  const key = `${set}:${fileAccess}`;
  let tools = made.get(key);
  if (!tools) {
    if (set === 'default') tools = [...jobs(fileAccess), callOperation()];
    else {
      const ops = operationTools();
      const taken = new Set(ops.map((t) => t.name));
      tools = [...ops, ...jobs(fileAccess).filter((t) => !taken.has(t.name))];
    }
    made.set(key, tools);
  }
  return tools;
}
