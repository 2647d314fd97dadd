// Embedded preparation sessions: single-use, expiring URLs to template authoring and Bundle preparation pages (TO BE IMPLEMENTED: helper E).
import { notImplemented } from '../service/errors.js';
import type { EmbedUrl } from '../service/types.js';
import type { EngineContext } from './context.js';

export function createTemplatePreparationSession(_ctx: EngineContext, _body: unknown): EmbedUrl {
  throw notImplemented('Template preparation sessions');
}
export function createBundlePreparationSession(_ctx: EngineContext, _body: unknown): EmbedUrl {
  throw notImplemented('Bundle preparation sessions');
}
