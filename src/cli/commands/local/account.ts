// esign local account show|set: requester defaults and links of the local account.
import type { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { printObject } from '../../output/print.js';
import type { Action } from '../../run.js';

export interface SetOptions {
  name?: string;
  requesterName?: string;
  requesterEmail?: string;
  publicUrl?: string;
  allowPrivateUrls?: boolean;
}

export function register(local: Command, action: Action): void {
  const account = local.command('account').description('Requester defaults and links of the local account');
  account.command('show', { isDefault: true }).description('Show the account').action(action(runShow));
  account
    .command('set')
    .description('Change account settings')
    .option('--name <name>')
    .option('--requester-name <name>')
    .option('--requester-email <email>')
    .option('--public-url <url>', 'base URL of signing and file links (where esign serve listens)')
    .option(
      '--allow-private-urls',
      'let esign serve reach private and loopback addresses (file_url downloads, webhook deliveries)',
    )
    .option('--no-allow-private-urls')
    .action(action(runSet));
}

export async function runShow(f: Factory): Promise<void> {
  const s = (await f.local()).account.settings();
  await printObject(f, s, Object.entries(s), s.name);
}

export async function runSet(f: Factory, o: SetOptions): Promise<void> {
  const s = (await f.local()).account.update({
    name: o.name,
    requester_name: o.requesterName,
    requester_email: o.requesterEmail,
    public_url: o.publicUrl,
    allow_private_urls: o.allowPrivateUrls,
  });
  await printObject(f, s, Object.entries(s), s.name);
}
