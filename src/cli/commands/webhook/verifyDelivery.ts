// esign webhook verify: checks one delivery's signature the way a receiver must (raw body, secret,
// X-Blueink-Signature, X-Blueink-Request-Timestamp). Exit 0 good, 9 bad signature, 11 stale.
import { readFile } from 'node:fs/promises';
import { environment } from '../../../app/environment.js';
import { verifySignature } from '../../../domain/webhookSignature.js';
import type { Factory } from '../../factory.js';
import { secondsArg } from '../../duration.js';
import type { OptionsOf } from '../../verb.js';
import type { verify } from './verify.js';
import { CliError, EXIT } from '../../exitCodes.js';
import { printObject, writeJson } from '../../output/print.js';
import { unreadable } from '../../run.js';

/** The flags of `esign webhook verify`, as its verb declares them (a type only: nothing is loaded back). */
type VerifyOptions = OptionsOf<typeof verify>;

async function readBody(ctx: Factory, o: VerifyOptions): Promise<Buffer> {
  if (o.payload !== undefined && o.payloadFile !== undefined)
    throw new CliError('Give --payload or --payload-file, not both.', EXIT.USAGE);
  if (o.payload !== undefined) return Buffer.from(o.payload, 'utf8');
  if (o.payloadFile !== undefined)
    return readFile(o.payloadFile).catch((e: unknown) => {
      throw unreadable('--payload-file', o.payloadFile!, e);
    });
  if (ctx.io.stdinIsTTY)
    throw new CliError(
      'Give the raw body with --payload TEXT or --payload-file FILE, or pipe it on stdin.',
      EXIT.USAGE,
    );
  const chunks: Buffer[] = [];
  for await (const c of ctx.io.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export async function run(ctx: Factory, o: VerifyOptions): Promise<void> {
  const secret = o.secret ?? environment(ctx.env).webhookSecret;
  if (!secret)
    throw new CliError(
      'Give the webhook secret with --secret (or env ESIGN_WEBHOOK_SECRET); esign webhook secret shows it.',
      EXIT.USAGE,
    );
  if (!o.signature)
    throw new CliError('Give --signature (the X-Blueink-Signature header of the delivery).', EXIT.USAGE);
  if (!o.timestamp)
    throw new CliError('Give --timestamp (the X-Blueink-Request-Timestamp header of the delivery).', EXIT.USAGE);
  const toleranceS = secondsArg(o.tolerance, '--tolerance');
  const body = await readBody(ctx, o);
  const r = verifySignature({ secret, signature: o.signature, timestamp: o.timestamp, body, toleranceS });
  if (r.ok) {
    const age = Math.floor(Date.now() / 1000) - r.timestamp;
    const result = { verified: true, timestamp: r.timestamp, age_s: age };
    return printObject(ctx, result, Object.entries(result));
  }
  if (ctx.options.json) writeJson(ctx, { verified: false, reason: r.reason, message: r.message });
  const code = r.reason === 'bad_signature' ? EXIT.MISMATCH : r.reason === 'stale_timestamp' ? EXIT.STALE : EXIT.USAGE;
  throw new CliError(r.message, code);
}
