// What a preparation page hands its script (JSON in `<main data-prep>`): types only, shared by the
// server that renders the page and the browser script that reads it.

/** A placed field in its wire shape: template fields (editor_roles, data_flow_tag) or Bundle fields (editors, doc). */
export interface PlacedField {
  key: string;
  kind: string;
  page: number;
  x: number;
  y: number;
  w?: number;
  h?: number;
  label?: string;
  required?: boolean;
  data_flow_tag?: string;
  doc?: number;
  editors?: string[];
  editor_roles?: string[];
  /** Members the page does not edit (v_pattern, default_value, ...) survive an edit. */
  [member: string]: unknown;
}

export interface PrepData {
  mode: 'template' | 'bundle' | 'draft';
  /** The session URL (path) for follow-up requests. */
  session: string;
  /** Who a field is given to: template roles or Bundle signers. */
  assign?: 'editor_roles' | 'editors';
  /** Field kinds the placer offers, with their names. */
  kinds?: Record<string, string>;
  pdfUrl?: string | null;
  fields: PlacedField[];
  /** Messages for placed fields, by their index. */
  fieldErrors?: Record<number, string[]>;
}
