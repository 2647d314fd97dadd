// The checks of a document's bytes on intake: strict base64, a readable PDF within the bounds of
// pdfBounds.ts (pdf-lib, loaded only when a document arrives), the office-upload gate. A client's
// check before sending (src/app/createCheck.ts) runs them in its own process; the engine runs them
// apart from the server (src/local/documents/sandbox).
import { extname } from 'node:path';
import { OFFICE_EXTENSIONS } from './enums.js';
import { countPages, prescanPdf } from './pdfBounds.js';

export interface PdfInfo {
  pages: number;
}

/** Why `data` is not a usable PDF, or its page count. */
export async function inspectPdf(data: Buffer): Promise<PdfInfo | { problem: string }> {
  const head = data.subarray(0, 1024).toString('latin1');
  if (!head.includes('%PDF-')) return { problem: 'The file is not a PDF (no %PDF- header).' };
  if (
    !data
      .subarray(Math.max(0, data.length - 2048))
      .toString('latin1')
      .includes('%%EOF')
  )
    return { problem: 'The PDF is truncated or corrupt (no %%EOF marker).' };
  const over = prescanPdf(data);
  if (over) return { problem: over };
  const lib = await import('pdf-lib');
  try {
    const doc = await lib.PDFDocument.load(data, {
      updateMetadata: false,
      throwOnInvalidObject: true,
      parseSpeed: lib.ParseSpeeds.Fastest,
    });
    const pages = countPages(lib, doc);
    if (typeof pages !== 'number') return pages;
    if (pages < 1) return { problem: 'The PDF has no pages.' };
    return { pages };
  } catch (e) {
    const reason = (e as Error).message.split('\n')[0];
    // One plain sentence: the parser's own message names its internals, not the user's problem.
    return { problem: /encrypt/i.test(reason) ? 'The PDF is encrypted.' : 'The PDF is corrupt or unreadable.' };
  }
}

/** Strict base64 (standard or URL alphabet, whitespace allowed); undefined when it is not. */
export function decodeBase64(text: string): Buffer | undefined {
  const compact = text.replace(/\s+/g, '');
  if (!compact || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(compact) || compact.length % 4 === 1) return undefined;
  return Buffer.from(compact, compact.includes('-') || compact.includes('_') ? 'base64url' : 'base64');
}

/** An office document (doc, docx, ppt, pptx, xls, xlsx), converted to PDF after the create. */
export const isOfficeFile = (filename: string): boolean =>
  (OFFICE_EXTENSIONS as readonly string[]).includes(extname(filename).slice(1).toLowerCase());
