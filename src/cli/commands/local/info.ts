// esign local info: where the local data lives, and what it holds.
import { printObject } from '../../output/print.js';
import { defineVerb } from '../../verb.js';

export const info = defineVerb('info', 'Where the local data lives, and what it holds', {
  examples: ['esign local info', 'esign local info --json'],
  async run(f) {
    const info = (await f.localEngine()).info();
    await printObject(f, info, Object.entries(info), info.data_dir);
  },
});
