// Document Templates: reusable PDFs with signer roles and placed fields (TO BE IMPLEMENTED: helper A).
import { notImplemented } from '../service/errors.js';
import type { DocumentTemplate, Page, TemplateListQuery } from '../service/types.js';
import type { EngineContext } from './context.js';

/** What `esign local template import` and the template authoring page hand the engine. */
export interface TemplateImport {
  name: string;
  pdf: Buffer;
  filename?: string;
  roles: { key: string; label?: string }[];
  /** Template fields (FieldRequest members with default_value, editor_roles, data_flow_tag); validated here. */
  fields?: unknown[];
  metadata?: Record<string, string>;
  is_shared?: boolean;
  teams?: string[];
  /** The folder the template sits in (preparation sessions' folder_ids and library). */
  library?: string;
}

export function listTemplates(_ctx: EngineContext, _q: TemplateListQuery): Page<DocumentTemplate> {
  throw notImplemented('Document Templates');
}
export function getTemplate(_ctx: EngineContext, _id: string): DocumentTemplate {
  throw notImplemented('Document Templates');
}
export function updateTemplate(_ctx: EngineContext, _id: string, _body: unknown): DocumentTemplate {
  throw notImplemented('Document Templates');
}
export function deleteTemplate(_ctx: EngineContext, _id: string): void {
  throw notImplemented('Document Templates');
}
/** Creates a template (new id) or, with `id`, replaces an existing template's definition (name, roles, fields, PDF). */
export async function saveTemplate(_ctx: EngineContext, _input: TemplateImport, _id?: string): Promise<DocumentTemplate> {
  throw notImplemented('Document Templates');
}
