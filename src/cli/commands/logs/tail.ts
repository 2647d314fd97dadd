// esign logs tail: esign serve's requests as they are answered (method, path, status, time, the
// key's id, the operation), filtered: from the data directory of the local engine, or over the
// wire from a remote esign serve (its stream needs the API key). The body: follow.ts (index.ts loads it).
import { declareVerb } from '../../verb.js';

export const tail = declareVerb('tail', "Follow esign serve's requests (the last ones first), filtered", {
  flags: (c) =>
    c
      .option('--status <code>', 'only this status (404) or class of them (4xx)')
      .option('--method <method>', 'only this method (GET, POST, ...)')
      .option('--path <prefix>', 'only paths starting with this (/api/v2/bundles/)')
      .option('--operation <name>', 'only this operation of the API (createBundle, signPacket, ...)')
      .option('-n, --lines <n>', 'how many earlier requests to show first (at most 1000)', '20')
      .option('--no-follow', 'show the earlier requests and stop'),
  examples: [
    'esign logs tail',
    'esign logs tail --status 4xx --no-follow',
    'esign logs tail --operation createBundle --json -p staging',
  ],
});
