// esign local account show|set: requester defaults and links of the local account.
import { printObject } from '../../output/print.js';
import { defineVerb } from '../../verb.js';

export const show = defineVerb('show', 'Show the account', {
  commandOptions: { isDefault: true },
  examples: ['esign local account show', 'esign local account show --json'],
  async run(f) {
    const s = (await f.localEngine()).account.settings();
    await printObject(f, s, Object.entries(s), s.name);
  },
});

export const set = defineVerb('set', 'Change account settings', {
  flags: (c) =>
    c
      .option('--name <name>')
      .option('--requester-name <name>')
      .option('--requester-email <email>')
      .option('--public-url <url>', 'base URL of signing and file links (where esign serve listens)')
      .option(
        '--allow-private-urls',
        'let esign serve reach private and loopback addresses (file_url downloads, webhook deliveries)',
      )
      .option('--no-allow-private-urls'),
  examples: [
    'esign local account set --name "Acme Ltd" --requester-email legal@acme.example',
    'esign local account set --public-url https://sign.acme.example',
  ],
  async run(f, o) {
    const s = (await f.localEngine()).account.update({
      name: o.name,
      requester_name: o.requesterName,
      requester_email: o.requesterEmail,
      public_url: o.publicUrl,
      allow_private_urls: o.allowPrivateUrls,
    });
    await printObject(f, s, Object.entries(s), s.name);
  },
});
