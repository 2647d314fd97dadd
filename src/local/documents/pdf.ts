// PDF checks on intake, with pdf-lib (loaded only when a document arrives).
import { loadPdfLib } from '../../lazyImport.js';

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
  const { PDFDocument } = await loadPdfLib();
  try {
    const doc = await PDFDocument.load(data, { updateMetadata: false, throwOnInvalidObject: true });
    const pages = doc.getPageCount();
    if (pages < 1) return { problem: 'The PDF has no pages.' };
    return { pages };
  } catch (e) {
    const reason = (e as Error).message.split('\n')[0];
    // One plain sentence: the parser's own message names its internals, not the user's problem.
    return { problem: /encrypt/i.test(reason) ? 'The PDF is encrypted.' : 'The PDF is corrupt or unreadable.' };
  }
}
