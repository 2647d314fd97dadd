// esign webhook verify: check one delivery's signature (its body, verifyDelivery.ts, loads only when it runs).
import { declareVerb } from '../../verb.js';

export const verify = declareVerb(
  'verify',
  "Check a delivery's signature: exit 0 if good, 9 if it does not match, 11 if its timestamp is stale",
  {
    flags: (c) =>
      c
        .option('--secret <secret>', 'the webhook secret (env ESIGN_WEBHOOK_SECRET)')
        .option('--signature <sig>', 'the X-Blueink-Signature header (v0=HEX)')
        .option('--timestamp <ts>', 'the X-Blueink-Request-Timestamp header (UNIX seconds)')
        .option('--payload <text>', 'the raw body (else --payload-file, else stdin)')
        .option('--payload-file <file>', 'a file holding the raw body, byte for byte')
        .option('--tolerance <seconds>', 'largest accepted age of the timestamp', '300'),
    examples: [
      'esign webhook verify --secret "$SECRET" --signature "$SIG" --timestamp "$TS" --payload-file body.json',
      'esign webhook verify --secret "$SECRET" --signature "$SIG" --timestamp "$TS" --payload \'{"event":"bundle_sent"}\' --tolerance 600',
    ],
  },
);
