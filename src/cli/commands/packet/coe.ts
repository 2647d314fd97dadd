// esign packet coe ID [--download FILE]: the signer's Certificate of Evidence.
import type { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { printObject } from '../../output.js';
import type { Action } from '../../run.js';

export interface CoeOptions {
  id: string;
  download?: string;
  clobber?: boolean;
}

export function register(packet: Command, action: Action): void {
  packet
    .command('coe <id>')
    .description("The signer's Certificate of Evidence (a link, or the PDF with --download)")
    .option('--download <file>', 'save the PDF here')
    .option('--clobber', 'replace the file if it exists')
    .action(action(async (f, o: Omit<CoeOptions, 'id'>, id: string) => run(f, { ...o, id })));
}

export async function run(f: Factory, o: CoeOptions): Promise<void> {
  const c = await (await f.service()).getPacketCoe(o.id);
  if (o.download) {
    const { download } = await import('../../download.js');
    const saved = await download(f, c.file_url, o.download, c.sha256, { clobber: o.clobber });
    return printObject(
      f,
      saved,
      [
        ['path', saved.path],
        ['bytes', saved.size],
        ['sha256', saved.sha256],
      ],
      saved.path,
    );
  }
  await printObject(
    f,
    c,
    [
      ['file_url', c.file_url],
      ['expires', c.expires],
      ['sha256', c.sha256],
    ],
    c.file_url,
  );
}
