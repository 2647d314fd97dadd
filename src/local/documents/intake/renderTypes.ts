// What an HTML document becomes: the types shared by html.ts and its two renderers.
import type { El } from './htmlDom.js';

export interface PlacedField {
  key: string;
  kind: string;
  label?: string;
  page: number;
  x: number;
  y: number;
  w: number;
  h: number;
  required?: boolean;
  initial_value?: string;
  editors?: string[];
}

export interface RenderedHtml {
  pdf: Buffer;
  fields: PlacedField[];
  renderer: 'chromium' | 'builtin';
}

export type Geometry = Pick<PlacedField, 'page' | 'x' | 'y' | 'w' | 'h'>;
/** A field found in the markup, before a renderer places it. */
export interface FieldSource {
  el: El;
  field: Omit<PlacedField, keyof Geometry>;
}
/** What a renderer returns: the PDF and, per FieldSource (same order), its box or undefined when it is not shown. */
export interface RenderResult {
  pdf: Buffer;
  boxes: (Geometry | undefined)[];
}
