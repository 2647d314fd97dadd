// Whether a file's bytes are what its extension says: an attachment named .png must be a PNG, so
// that what is stored and later served under that type is that type.

const starts = (sig: number[] | string) => (d: Buffer) => {
  const bytes = typeof sig === 'string' ? Buffer.from(sig, 'latin1') : Buffer.from(sig);
  return d.length >= bytes.length && d.subarray(0, bytes.length).equals(bytes);
};
const zip = starts([0x50, 0x4b, 0x03, 0x04]);
const ole = starts([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
/** Text: no NUL byte and valid UTF-8. */
const text = (d: Buffer) => !d.includes(0) && Buffer.from(d.toString('utf8'), 'utf8').equals(d);

const CHECKS: Record<string, (d: Buffer) => boolean> = {
  pdf: starts('%PDF-'),
  png: starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  jpg: starts([0xff, 0xd8, 0xff]),
  jpeg: starts([0xff, 0xd8, 0xff]),
  gif: (d) => starts('GIF87a')(d) || starts('GIF89a')(d),
  tif: (d) => starts('II*\0')(d) || starts('MM\0*')(d),
  tiff: (d) => starts('II*\0')(d) || starts('MM\0*')(d),
  bmp: starts('BM'),
  webp: (d) => starts('RIFF')(d) && d.subarray(8, 12).toString('latin1') === 'WEBP',
  docx: zip,
  xlsx: zip,
  pptx: zip,
  odt: zip,
  ods: zip,
  odp: zip,
  zip,
  doc: ole,
  xls: ole,
  ppt: ole,
  rtf: starts('{\\rtf'),
  txt: text,
  csv: text,
};

/** False when the extension is one esign knows and the bytes are something else. */
export function bytesMatchExtension(ext: string, data: Buffer): boolean {
  const check = CHECKS[ext.toLowerCase()];
  return check ? check(data) : true;
}
