// The font packages evidence uses ship no types: what this project calls of them. Each is read
// either as its named exports or as its default (CommonJS under Node, ES modules when bundled).
declare module 'fontkit' {
  export function create(data: Uint8Array): unknown;
  const fontkit: { create(data: Uint8Array): unknown } | undefined;
  export default fontkit;
}
declare module 'bidi-js' {
  const bidiFactory: () => unknown;
  export default bidiFactory;
}
declare module 'wawoff2' {
  export function decompress(data: Uint8Array): Promise<Uint8Array>;
  const wawoff2: { decompress(data: Uint8Array): Promise<Uint8Array> } | undefined;
  export default wawoff2;
}
