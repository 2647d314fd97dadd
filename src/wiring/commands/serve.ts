// esign serve: the embedded engine behind the API v2 wire.
// (The body: serve.run.ts, loaded by src/wiring/wiring.ts.)
import { hostArg } from '../../cli/flags.js';
import { declareVerb } from '../../cli/verb.js';

export const serve = declareVerb(
  'serve',
  'Serve the embedded engine as API v2 over HTTP (Authorization: Token <key>, see esign local keys)',
  {
    flags: (c) =>
      c
        .option('--host <host>', 'address to listen on', '127.0.0.1')
        .option('--port <n>', 'port (0 picks a free one)', '8787')
        .option('--public-url <url>', 'base URL for signing and file links (default http://HOST:PORT)')
        .option('--rate-limit <n>', 'requests per key per window', '2000')
        .option('--create-rate-limit <n>', 'Bundle creations per key per window', '200')
        .option('--rate-window <seconds>', 'rate-limit window', '3600')
        .option(
          '--allow-private-urls',
          'let file_url downloads and webhook deliveries reach private and loopback addresses (local development)',
        )
        .option('--request-timeout <seconds>', 'time a client has to send a whole request', '120')
        .option('--max-upload-mb <n>', "largest uploaded file (a request's files may total 4 times this)", '50')
        .option('--connections-per-address <n>', 'open connections per client address', '32')
        .option('--no-console', 'do not serve the support console at /console/')
        .option(
          '--console-host <name>',
          "another Host name the console answers to, such as a proxy's (repeatable; its own address and --public-url always are)",
          hostArg,
        )
        .option('--console-read-only', 'a support console that can only look')
        .option('--no-request-log', 'keep no log of requests in the data directory (esign logs tail reads it)')
        .option('--ready-file <path>', 'once listening, write {"ready": true, "url": ...} there (removed on stop)')
        .option('--max-sandboxes <n>', 'sandboxes that may exist at once at /sandboxes/ (0: none)', '20')
        .option('--sandbox-max-ttl <seconds>', 'the longest life a sandbox may be given', '86400')
        .option('--sandbox-max-mb <n>', 'disk one sandbox may hold; past it, its writes are refused', '256'),
    examples: [
      'esign serve',
      'esign serve --port 8787 --public-url https://sign.example.com',
      'esign serve --port 0 --json --ready-file serve.json --max-sandboxes 50',
    ],
  },
);
