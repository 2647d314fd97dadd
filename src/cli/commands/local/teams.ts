// esign local teams list|add and local brands list|add: teams and signing brands of the account.
import { fieldColumns, printObject } from '../../output/print.js';
import { defineVerb } from '../../verb.js';
import { engineList } from './shared/verbs.js';

export const listTeams = engineList({
  examples: ['esign local teams list', 'esign local teams list --json'],
  rows: (engine) => engine.account.teams(),
  columns: [...fieldColumns(['id', 'name']), { header: 'REQUESTER', value: (t) => t.requester_email }],
  id: (t) => t.id,
});

export const addTeam = defineVerb('add <name>', 'Add a team', {
  flags: (c) => c.option('--requester-name <name>').option('--requester-email <email>'),
  examples: [
    'esign local teams add Legal',
    'esign local teams add Sales --requester-name "Sales desk" --requester-email sales@acme.example',
  ],
  async run(f, o, name) {
    const t = (await f.localEngine()).account.addTeam({
      name,
      requester_name: o.requesterName,
      requester_email: o.requesterEmail,
    });
    await printObject(f, t, Object.entries(t), t.id);
  },
});

export const listBrands = engineList({
  examples: ['esign local brands list', 'esign local brands list --json'],
  rows: (engine) => engine.account.brands(),
  columns: [...fieldColumns(['id', 'name']), { header: 'REDIRECT', value: (b) => b.redirect_url }],
  id: (b) => b.id,
});

export const addBrand = defineVerb('add <name>', 'Add a signing brand', {
  flags: (c) => c.option('--redirect-url <url>'),
  examples: ['esign local brands add Acme', 'esign local brands add Acme --redirect-url https://acme.example/thanks'],
  async run(f, o, name) {
    const b = (await f.localEngine()).account.addBrand({ name, redirect_url: o.redirectUrl });
    await printObject(f, b, Object.entries(b), b.id);
  },
});
