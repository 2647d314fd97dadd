// Making what a scenario sets up (fixtureFormat.ts) over the port: the account and templates by the
// sandbox's fixture operations, Persons and webhooks by API v2. A PDF named by the file is read
// from beside it and sent as base64: the backend (a sandbox of esign serve, or the engine) reads no
// paths of ours.
import { readFile, stat } from 'node:fs/promises';
import { basename, isAbsolute, resolve } from 'node:path';
import { MAX_TEMPLATE_PDF_BYTES } from '../domain/schemas.js';
import type { EsignService } from '../service/service.js';
import { AssertionFailed } from './expect.js';
import type { Fixture } from './fixtureFormat.js';
import type { Step } from './format.js';

/** What making a fixture needs of the run: the port, and the scenario's folder (its PDFs). */
interface RunContext {
  service: EsignService;
  dir: string;
}

/** The PDF at `file` (relative to the scenario) as base64, refused past the wire's limit. */
async function pdfB64(ctx: RunContext, file: string): Promise<string> {
  const at = isAbsolute(file) ? file : resolve(ctx.dir, file);
  const size = (await stat(at)).size;
  if (size > MAX_TEMPLATE_PDF_BYTES)
    throw new AssertionFailed(
      `${file}: ${size} bytes, more than a template PDF may be (${MAX_TEMPLATE_PDF_BYTES / 1024 / 1024} MB)`,
      MAX_TEMPLATE_PDF_BYTES,
      size,
    );
  return (await readFile(at)).toString('base64');
}

type Made<F extends Fixture> = NonNullable<Step[F & keyof Step]>;

async function template(t: Made<'template'>, ctx: RunContext) {
  const { file, ...def } = t;
  return ctx.service.setupTemplate({
    ...def,
    filename: def.filename ?? basename(file),
    file_b64: await pdfB64(ctx, file),
  });
}

async function envelopeTemplate(e: Made<'envelope_template'>, ctx: RunContext) {
  const documents = await Promise.all(
    e.documents.map(async ({ file, file_path, ...d }) => {
      const path = file ?? file_path;
      return path === undefined ? d : { ...d, file_b64: await pdfB64(ctx, path) };
    }),
  );
  return ctx.service.setupEnvelopeTemplate({ ...e, documents });
}

type Make = (value: never, ctx: RunContext) => Promise<unknown>;

/** How each fixture is made: its answer is what later steps refer to. */
export const MAKE: Record<Fixture, Make> = {
  account: ((a: Made<'account'>, ctx: RunContext) => ctx.service.setupAccount(a)) as Make,
  template: template as Make,
  envelope_template: envelopeTemplate as Make,
  person: ((p: Record<string, unknown>, ctx: RunContext) => ctx.service.createPerson(p)) as Make,
  webhook: ((w: Record<string, unknown>, ctx: RunContext) => ctx.service.createWebhook(w)) as Make,
};
