// CommonJS packages imported on demand arrive differently bundled (exports under `default`) and
// under plain Node (named exports): these loaders give the module either way.

function interop<T extends object>(m: T & { default?: T }, probe: keyof T): T {
  return m[probe] ? m : m.default!;
}

export const loadUndici = async (): Promise<typeof import('undici')> => interop(await import('undici'), 'Agent');

export const loadPdfLib = async (): Promise<typeof import('pdf-lib')> => interop(await import('pdf-lib'), 'PDFDocument');
