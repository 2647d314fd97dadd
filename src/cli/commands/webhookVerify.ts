// esign webhook verify: checks one delivery's signature the way a receiver must (raw body, secret,
// X-Blueink-Signature, X-Blueink-Request-Timestamp). Exit 0 good, 9 bad signature, 11 stale.
import { readFile } from 'node:fs/promises';
import { verifySignature } from '../../local/webhooks/signature.js';
import type { Context } from '../context.js';
import { CliError, EXIT } from '../exitCodes.js';
import { printObject, writeJson } from '../output.js';
import { intArg } from '../run.js';

export interface VerifyFlags {
  secret?: string;
  signature?: string;
  timestamp?: string;
  payload?: string;
  payloadFile?: string;
  tolerance: string;
}

async function readBody(o: VerifyFlags): Promise<Buffer> {
  if (o.payload !== undefined && o.payloadFile !== undefined) throw new CliError('Give --payload or --payload-file, not both.');
  if (o.payload !== undefined) return Buffer.from(o.payload, 'utf8');
  if (o.payloadFile !== undefined)
    return readFile(o.payloadFile).catch((e: NodeJS.ErrnoException) => {
      throw new CliError(`--payload-file ${o.payloadFile}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
    });
  if (process.stdin.isTTY) throw new CliError('Give the raw body with --payload TEXT or --payload-file FILE, or pipe it on stdin.');
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export async function verifyCommand(ctx: Context, o: VerifyFlags): Promise<void> {
  const secret = o.secret ?? process.env.ESIGN_WEBHOOK_SECRET;
  if (!secret) throw new CliError('Give the webhook secret with --secret (or env ESIGN_WEBHOOK_SECRET); esign webhook secret shows it.');
  if (!o.signature) throw new CliError('Give --signature (the X-Blueink-Signature header of the delivery).');
  if (!o.timestamp) throw new CliError('Give --timestamp (the X-Blueink-Request-Timestamp header of the delivery).');
  const toleranceS = intArg(o.tolerance, '--tolerance', 0);
  const body = await readBody(o);
  const r = verifySignature({ secret, signature: o.signature, timestamp: o.timestamp, body, toleranceS });
  if (r.ok) {
    const age = Math.floor(Date.now() / 1000) - r.timestamp;
    const result = { verified: true, timestamp: r.timestamp, age_s: age };
    return printObject(result, Object.entries(result), ctx.options);
  }
  if (ctx.options.json) writeJson({ verified: false, reason: r.reason, message: r.message });
  const code = r.reason === 'bad_signature' ? EXIT.MISMATCH : r.reason === 'stale_timestamp' ? EXIT.STALE : EXIT.USAGE;
  throw new CliError(r.message, code);
}
