// The worker bundle of pdfjs-dist ships without typings; pdfText.ts only hands it to pdfjs.
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
