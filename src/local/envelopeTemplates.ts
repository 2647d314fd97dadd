// Envelope Templates: reusable Bundle definitions (TO BE IMPLEMENTED: helper A).
import { notImplemented } from '../service/errors.js';
import type { EnvelopeTemplate, Page, PageQuery } from '../service/types.js';
import type { EngineContext } from './context.js';

export function listEnvelopeTemplates(_ctx: EngineContext, _q: PageQuery): Page<EnvelopeTemplate> {
  throw notImplemented('Envelope Templates');
}
export function getEnvelopeTemplate(_ctx: EngineContext, _id: string): EnvelopeTemplate {
  throw notImplemented('Envelope Templates');
}
/** `esign local envelope-template create spec.json`: files named in the spec are read relative to `baseDir`. */
export async function createEnvelopeTemplate(_ctx: EngineContext, _spec: unknown, _baseDir: string): Promise<EnvelopeTemplate> {
  throw notImplemented('Envelope Templates');
}
/** A BundleTemplateRequest (or a BundleRequest with `envelope_template`) as the BundleRequest it stands for. */
export function expandEnvelopeRequest(_ctx: EngineContext, _body: unknown): Record<string, unknown> {
  throw notImplemented('Creating a Bundle from an Envelope Template');
}
