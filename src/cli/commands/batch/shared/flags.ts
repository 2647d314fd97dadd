// The flags that name where a batch's Bundles come from: a spec, a Document Template or an Envelope
// Template (src/cli/batch/source.ts reads them).
import type { Command, OptionValues } from '@commander-js/extra-typings';

/** --spec, --template, --envelope-template; `columns` adds which CSV columns each template takes. */
export function addSourceOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  cmd: Command<A, O, G>,
  columns: boolean,
) {
  return cmd
    .option('-f, --spec <file>', 'a BundleRequest JSON whose strings may hold {{column}} placeholders')
    .option(
      '--template <id>',
      columns
        ? 'a Document Template: ROLE.name|email|phone|deliver_via, field.KEY and tag.NAME columns'
        : 'a Document Template',
    )
    .option(
      '--envelope-template <id>',
      columns
        ? 'an Envelope Template: SIGNER.name|email|phone|deliver_via and field.KEY columns'
        : 'an Envelope Template',
    );
}
