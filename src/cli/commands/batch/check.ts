// esign batch check ROWS.csv (and batch send --dry-run): builds and validates every row as a real
// create would, sends nothing, and reports each problem as `row 17, column ada.email: ...`; exit 3.
// (The body: check.run.ts.)
import { declareVerb } from '../../verb.js';
import { addSourceOptions } from './shared/flags.js';

export const check = declareVerb(
  'check <rows.csv>',
  'Validate every row as a real send would, sending nothing; exit 3 when any row is invalid',
  {
    flags: (c) => addSourceOptions(c, true),
    examples: [
      'esign batch check rows.csv --spec nda.json',
      'esign batch check offers.csv --template 3f2b0c1e-8a4d-4e6b-9c1a-2d5e7f9a0b1c --json',
    ],
  },
);
