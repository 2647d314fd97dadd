// esign packet embed-url ID: a single-use, expiring URL for embedded signing.
import type { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { printObject } from '../../output.js';
import type { Action } from '../../run.js';

export interface EmbedUrlOptions {
  id: string;
}

export function register(packet: Command, action: Action): void {
  packet
    .command('embed-url <id>')
    .description('A single-use, expiring URL for embedded signing')
    .action(action(async (f, _o: object, id: string) => run(f, { id })));
}

export async function run(f: Factory, o: EmbedUrlOptions): Promise<void> {
  const u = await (await f.service()).createEmbedUrl(o.id);
  await printObject(
    f,
    u,
    [
      ['url', u.url],
      ['expires', u.expires],
    ],
    u.url,
  );
}
