// A sandbox's templates set up over the wire (POST /sandbox/templates/, /sandbox/envelope-templates/):
// the authoring of `esign local template import` and `envelope-template create`, with the PDFs in the
// request as base64. A server reads no paths a client names: `file` and `file_path` are refused.
import { FieldErrors } from '../../domain/errors.js';
import type { DocumentTemplate, EnvelopeTemplate } from '../../service/types.js';
import type { EngineContext } from '../store/context.js';
import { createEnvelopeTemplate } from './envelopes.js';
import { saveTemplate } from './templates.js';

const schemas = () => import('../../domain/schemas.js');
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The bytes of a base64 PDF, or a field error (a PDF's own problems are the PDF check's to name). */
function pdfBytes(b64: string, field: string, max: number, errs: FieldErrors): Buffer | undefined {
  const clean = b64.replace(/\s+/g, '');
  if (!BASE64.test(clean) || clean.length % 4 === 1) return void errs.add(field, 'Not base64.');
  const data = Buffer.from(clean, 'base64');
  if (data.length > max) return void errs.add(field, `A PDF of at most ${max / 1024 / 1024} MB.`);
  return data;
}

export async function setupTemplate(ctx: EngineContext, body: unknown): Promise<DocumentTemplate> {
  const S = await schemas();
  const { file_b64, ...def } = S.parseOr400(S.TemplateSetupRequest, body);
  const errs = new FieldErrors();
  const pdf = pdfBytes(file_b64, 'file_b64', S.MAX_TEMPLATE_PDF_BYTES, errs);
  errs.throwIfAny();
  return saveTemplate(ctx, { ...def, pdf: pdf! }, undefined, 'file_b64');
}

export async function setupEnvelopeTemplate(ctx: EngineContext, body: unknown): Promise<EnvelopeTemplate> {
  const S = await schemas();
  const spec = S.parseOr400(S.EnvelopeTemplateSpec, body);
  const errs = new FieldErrors();
  if (spec.documents.length > S.FIXTURE_COUNTS.documents)
    errs.add('documents', `Ensure this list has no more than ${S.FIXTURE_COUNTS.documents} items.`);
  if (spec.signers.length > S.FIXTURE_COUNTS.roles)
    errs.add('signers', `Ensure this list has no more than ${S.FIXTURE_COUNTS.roles} items.`);
  spec.documents.forEach((d, i) => {
    for (const member of ['file', 'file_path'])
      if ((d as Record<string, unknown>)[member] !== undefined)
        errs.add(`documents[${i}].${member}`, 'Give the PDF as file_b64: the server reads no paths.');
    if ('file_b64' in d && d.file_b64 !== undefined)
      pdfBytes(d.file_b64, `documents[${i}].file_b64`, S.MAX_TEMPLATE_PDF_BYTES, errs);
  });
  errs.throwIfAny();
  // No folder: every document is a template or base64.
  return createEnvelopeTemplate(ctx, body, '/nonexistent');
}
