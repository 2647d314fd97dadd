// esign console: the support console on 127.0.0.1 over the backend the profile or environment
// selects (the embedded engine, or a remote server through the remote adapter). It prints a
// one-time sign-in URL on stderr (its address on stdout) and, with --open, opens the browser there.
// (The body: console.run.ts, loaded by src/wiring/wiring.ts.)
import { declareVerb } from '../../cli/verb.js';

export const supportConsole = declareVerb(
  'console',
  'The support console in a browser: find Bundles, read their story, verify PDFs (on 127.0.0.1, over the current backend)',
  {
    flags: (c) =>
      c
        .option('--port <n>', 'port on 127.0.0.1 (0 picks a free one)', '0')
        .option('--open', 'open the sign-in URL in the browser')
        .option('--read-only', 'a console that can only look: no cancel, remind or resend')
        .option('--session-hours <n>', 'how long a sign-in lasts', '8')
        .option(
          '--poll-seconds <n>',
          'a remote backend: the shortest pause between checks of an open Bundle (the rate limit may ask for longer)',
          '5',
        ),
    examples: ['esign console', 'esign console --read-only --port 8080 --open'],
  },
);
