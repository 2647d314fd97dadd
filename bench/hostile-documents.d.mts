// Types of hostile-documents.mjs, for the test that sends them.
export interface HostileDocument {
  name: string;
  /** A PDF sent as file_b64, or as a multipart file when `multipart`. */
  pdf?: Buffer;
  /** HTML sent as file_html. */
  html?: string;
  multipart?: boolean;
  /** Members added to the document (auto-placements). */
  extra?: Record<string, unknown>;
  /** What the refusal must say. */
  reason: RegExp;
}
export function hostileDocuments(scale?: number): Promise<HostileDocument[]>;
export function pdfOf(objs: [number, string, Buffer?][], trailer?: string): Buffer;
export function zeroBomb(bytes: number): Promise<Buffer>;
export function pageTreeDag(width?: number, levels?: number): Buffer;
export function pageTreeCycle(): Buffer;
export function xrefStreamIndex(): Buffer;
export function classicXref(entries?: number): Buffer;
export function objectStreamBomb(bytes?: number): Promise<Buffer>;
export function contentStreamBomb(bytes?: number): Promise<Buffer>;
export function deepNesting(depth?: number): Buffer;
export function malformedTrailer(): Buffer;
export function noRoot(): Buffer;
export function hugeTable(bytes?: number): string;
