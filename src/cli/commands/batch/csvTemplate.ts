// esign batch csv-template: the header row (and one example row) a source needs.
import { declareVerb } from '../../verb.js';
import { addSourceOptions } from './shared/flags.js';

export const csvTemplate = declareVerb(
  'csv-template',
  'Print the CSV header (and an example row) that --spec, --template or --envelope-template needs',
  {
    flags: (c) => addSourceOptions(c, false).option('--no-example', 'the header row only'),
    examples: [
      'esign batch csv-template --spec nda.json > rows.csv',
      'esign batch csv-template --template 3f2b0c1e-8a4d-4e6b-9c1a-2d5e7f9a0b1c',
    ],
  },
);
