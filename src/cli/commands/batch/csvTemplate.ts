// esign batch csv-template: the header row (and one example row) a source needs.
import { defineVerb } from '../../verb.js';
import { addSourceOptions } from './shared/flags.js';

export const csvTemplate = defineVerb(
  'csv-template',
  'Print the CSV header (and an example row) that --spec, --template or --envelope-template needs',
  {
    flags: (c) => addSourceOptions(c, false).option('--no-example', 'the header row only'),
    examples: [
      'esign batch csv-template --spec nda.json > rows.csv',
      'esign batch csv-template --template 3f2b0c1e-8a4d-4e6b-9c1a-2d5e7f9a0b1c',
    ],
    async run(f, o) {
      const [{ loadSource }, { templateColumns }, { csvRecords }] = await Promise.all([
        import('../../batch/source.js'),
        import('../../../app/batch/mapping.js'),
        import('../../../app/csvOut.js'),
      ]);
      const { header, example } = templateColumns((await loadSource(f, o)).source);
      f.io.out.write(csvRecords(o.example === false ? [header] : [header, example]));
    },
  },
);
