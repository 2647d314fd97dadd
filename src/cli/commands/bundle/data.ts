// esign bundle data SLUG: the field values of a Bundle.
import type { BundleDataItem } from '../../../service/types.js';
import { fieldColumns, printList } from '../../output/print.js';
import { idVerb } from '../../verb.js';

export const data = idVerb({
  name: 'data',
  arg: 'slug',
  description: 'Field values of the Bundle',
  examples: ['esign bundle data 9KwSrpJdyp', 'esign bundle data 9KwSrpJdyp --json'],
  fetch: (s, slug) => s.getBundleData(slug),
  show: (f, items) =>
    printList(
      f,
      items,
      [
        { header: 'DOC', value: (d) => d.doc_key },
        { header: 'FIELD', value: (d) => d.field_key },
        ...fieldColumns<BundleDataItem>(['kind', 'label', 'value', 'filled_by']),
      ],
      (d) => d.field_key,
    ),
});
