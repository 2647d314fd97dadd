// The verbs of esign scenario; their bodies (run.ts beside them) load only when they run: index.ts
// loads them (run.ts takes its types from here, and nothing here imports it).
import { declareVerb } from '../../../cli/verb.js';

export const run = declareVerb(
  'run <files...>',
  'Run scenario files, each on a fresh local engine (or a sandbox of a remote esign serve); exit 16 when a step fails',
  {
    flags: (c) =>
      c
        .option('--backend <url>', "a remote server's API base URL (key: ESIGN_API_KEY); -p PROFILE too")
        .option('--junit <file>', 'also write the results as JUnit XML')
        .option('--live', 'let steps email and text real people where the backend sends for real')
        .option('--jobs <n>', 'files run at once, each on its own engine (default: the CPUs)')
        .option('--keep', "keep each file's local engine or sandbox, and say where")
        .option(
          '--shared',
          'on a remote server, run every file with the key as given, one after another (no sandboxes)',
        ),
    examples: [
      'esign scenario run nda.scenario.yaml',
      'esign scenario run tests/*.yaml --junit results.xml',
      'esign scenario run tests/*.yaml --backend http://ci-esign:8787/api/v2 --jobs 4 --json',
    ],
  },
);

export const check = declareVerb(
  'check <files...>',
  'Check scenario files without running them; exit 17 when one is invalid',
  {
    examples: ['esign scenario check nda.scenario.yaml', 'esign scenario check tests/*.yaml --json'],
  },
);

export const init = declareVerb(
  'init [dir]',
  'Write a commented example scenario (and the PDF it sends) to start from',
  {
    flags: (c) => c.option('--force', 'replace the files if they exist'),
    examples: ['esign scenario init', 'esign scenario init tests/esign'],
  },
);

export const schema = declareVerb('schema', "The scenario format's JSON Schema, for editors", {
  examples: ['esign scenario schema', 'esign scenario schema > scenario.schema.json'],
});

export const ops = declareVerb('ops', 'The API operations a call step names, with method, path and summary', {
  examples: ['esign scenario ops', 'esign scenario ops -q', 'esign scenario ops --json'],
});
