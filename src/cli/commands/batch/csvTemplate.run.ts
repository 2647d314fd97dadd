// The body of esign batch csv-template (declared in csvTemplate.ts).
import { templateColumns } from '../../../app/batch/mapping.js';
import { csvRecords } from '../../../app/csvOut.js';
import { loadSource } from '../../batch/source.js';
import type { Run } from '../../verb.js';
import type { csvTemplate } from './csvTemplate.js';

export const run: Run<typeof csvTemplate> = async (f, o) => {
  const { header, example } = templateColumns((await loadSource(f, o)).source);
  f.io.out.write(csvRecords(o.example === false ? [header] : [header, example]));
};
