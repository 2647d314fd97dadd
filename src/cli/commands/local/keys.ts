// esign local keys list|create|revoke: API keys for esign serve (stored hashed; a key is shown once).
import { fieldColumns, printObject } from '../../output/print.js';
import { defineVerb } from '../../verb.js';
import { engineList } from './shared/verbs.js';

export const list = engineList({
  description: 'List keys',
  examples: ['esign local keys list', 'esign local keys list --json'],
  rows: (engine) => engine.keys.list(),
  columns: [...fieldColumns(['id', 'name', 'prefix', 'created']), { header: 'REVOKED', value: (k) => k.revoked_at }],
  id: (k) => k.id,
});

export const create = defineVerb('create', 'Create a key and print it (only this once)', {
  flags: (c) => c.option('--name <name>', 'what the key is for', 'default'),
  examples: ['esign local keys create --name ci', 'esign local keys create --name ci -q'],
  async run(f, o) {
    const { record, key } = (await f.localEngine()).keys.create(o.name);
    if (f.options.json) return printObject(f, { ...record, key }, []);
    if (!f.options.quiet) f.io.err.write(`Created API key ${record.id} (${record.name}). It is shown only now:\n`);
    f.io.out.write(`${key}\n`);
  },
});

export const revoke = defineVerb('revoke <id>', 'Revoke a key by id, prefix or the whole key', {
  examples: ['esign local keys revoke esk_AbC123', 'esign local keys revoke 1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f'],
  async run(f, _o, id) {
    const k = (await f.localEngine()).keys.revoke(id);
    await printObject(f, k, Object.entries(k), k.id);
  },
});
