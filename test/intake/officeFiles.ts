// Office files built by the tests, byte by byte: OOXML packages (ZIP, written here so that a test can
// lie in them: sizes, ratios, links) and OLE2 compound files (written by the cfb package).
import { crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';
import CFB from 'cfb';

export interface ZipEntry {
  name: string;
  data?: Buffer | string;
  /** Instead of data: `size` bytes of `fill` repeated between `head` and `tail`, deflated as a stream (a bomb, without holding it). */
  repeat?: { fill: string; size: number; head?: string; tail?: string };
  /** The inflated size the archive claims, when it should lie. */
  claimedSize?: number;
}

async function deflated(e: ZipEntry): Promise<{ raw: Buffer; crc: number; size: number }> {
  if (!e.repeat) {
    const data = Buffer.from(e.data ?? '');
    return { raw: deflateRawSync(data), crc: crc32(data), size: data.length };
  }
  const unit = Buffer.from(e.repeat.fill.repeat(Math.ceil((1 << 20) / e.repeat.fill.length)));
  const out: Buffer[] = [];
  const z = createDeflateRaw({ level: 9 });
  z.on('data', (b: Buffer) => out.push(b));
  let crc = 0;
  const write = async (piece: Buffer) => {
    crc = crc32(piece, crc);
    if (!z.write(piece)) await new Promise((r) => z.once('drain', r));
  };
  const head = Buffer.from(e.repeat.head ?? '');
  const tail = Buffer.from(e.repeat.tail ?? '');
  await write(head);
  for (let left = e.repeat.size; left > 0; ) {
    const piece = unit.subarray(0, Math.min(unit.length, left));
    left -= piece.length;
    await write(piece);
  }
  await write(tail);
  // 'end' (all output read), not end()'s callback ('finish', input taken): output may still be coming.
  const ended = new Promise((r) => z.once('end', r));
  z.end();
  await ended;
  return { raw: Buffer.concat(out), crc, size: head.length + e.repeat.size + tail.length };
}

/** A ZIP archive of `entries`, deflated. */
export async function zip(entries: ZipEntry[]): Promise<Buffer> {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const { raw, crc, size } = await deflated(e);
    const name = Buffer.from(e.name);
    const claimed = e.claimedSize ?? size;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(raw.length, 18);
    local.writeUInt32LE(claimed, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, raw);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(0x0800, 8);
    dir.writeUInt16LE(8, 10);
    dir.writeUInt32LE(crc >>> 0, 16);
    dir.writeUInt32LE(raw.length, 20);
    dir.writeUInt32LE(claimed, 24);
    dir.writeUInt16LE(name.length, 28);
    dir.writeUInt32LE(offset, 42);
    central.push(dir, name);
    offset += 30 + name.length + raw.length;
  }
  const dirBytes = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dirBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dirBytes, end]);
}

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const REL = 'http://schemas.openxmlformats.org/package/2006/relationships';
const IMAGE = `${R}/image`;

const contentTypes = (main: string) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Default Extension="png" ContentType="image/png"/>
<Override PartName="/word/document.xml" ContentType="${main}"/>
</Types>`;
const DOCX_MAIN = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml';
const rootRels = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="${REL}"><Relationship Id="rId1" Type="${R}/officeDocument" Target="word/document.xml"/></Relationships>`;

const paragraph = (text: string) => `<w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
const documentXml = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="${W}" xmlns:r="${R}"
 xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
 xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"
 xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><w:body>${body}</w:body></w:document>`;

/** A picture that shows the image of relationship `rel`, linked (r:link) or embedded (r:embed). */
const picture = (rel: string, how: 'link' | 'embed') =>
  `<w:p><w:r><w:drawing><wp:inline><wp:extent cx="1905000" cy="1905000"/><wp:docPr id="1" name="Picture 1"/>
<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic>
<pic:nvPicPr><pic:cNvPr id="1" name="image"/><pic:cNvPicPr/></pic:nvPicPr>
<pic:blipFill><a:blip r:${how}="${rel}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>
<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="1905000" cy="1905000"/></a:xfrm><a:prstGeom prst="rect"/></pic:spPr>
</pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;

export interface DocxOptions {
  text?: string;
  /** Extra body XML (fields, pictures). */
  body?: string;
  /** Relationships of word/document.xml beside the defaults: [id, type, target, external?]. */
  rels?: [string, string, string, boolean?][];
  extra?: ZipEntry[];
  /** The main part's content type (a spreadsheet's, to make a workbook named .docx). */
  main?: string;
}

/** A minimal Word document LibreOffice opens. */
export function docx(o: DocxOptions = {}): Promise<Buffer> {
  const rels = (o.rels ?? [])
    .map(
      ([id, type, target, ext]) =>
        `<Relationship Id="${id}" Type="${type}" Target="${target}"${ext ? ' TargetMode="External"' : ''}/>`,
    )
    .join('');
  return zip([
    { name: '[Content_Types].xml', data: contentTypes(o.main ?? DOCX_MAIN) },
    { name: '_rels/.rels', data: rootRels },
    { name: 'word/document.xml', data: documentXml(paragraph(o.text ?? 'Hello from a test') + (o.body ?? '')) },
    {
      name: 'word/_rels/document.xml.rels',
      data: `<?xml version="1.0"?><Relationships xmlns="${REL}">${rels}</Relationships>`,
    },
    ...(o.extra ?? []),
  ]);
}

/** A Word document whose picture is the image at `url`, linked (an external relationship). */
export const docxLinkingImage = (url: string) =>
  docx({ text: 'Linked picture below', body: picture('rIdImg', 'link'), rels: [['rIdImg', IMAGE, url, true]] });

/** A Word document holding a complex field, its instruction split over runs as Word writes it. */
export const docxWithField = (instruction: string) => {
  const half = Math.ceil(instruction.length / 2);
  const run = (x: string) => `<w:r>${x}</w:r>`;
  return docx({
    body: `<w:p>${run('<w:fldChar w:fldCharType="begin"/>')}${run(`<w:instrText xml:space="preserve">${instruction.slice(0, half)}</w:instrText>`)}${run(`<w:instrText xml:space="preserve">${instruction.slice(half)}</w:instrText>`)}${run('<w:fldChar w:fldCharType="separate"/>')}${run('<w:t>result</w:t>')}${run('<w:fldChar w:fldCharType="end"/>')}</w:p>`,
  });
};

/** A Word document whose body inflates to `size` bytes of paragraphs (whole ones), each a few bytes compressed. */
export const docxBomb = (size: number) => {
  const fill = paragraph('Bomb text');
  const [head, tail] = documentXml('\0').split('\0');
  return zip([
    { name: '[Content_Types].xml', data: contentTypes(DOCX_MAIN) },
    { name: '_rels/.rels', data: rootRels },
    { name: 'word/document.xml', repeat: { fill, size: size - (size % fill.length), head, tail } },
  ]);
};

/** An OpenDocument text (what LibreOffice writes as .odt): a ZIP with a mimetype entry. */
export const odt = (body: string) =>
  zip([
    { name: 'mimetype', data: 'application/vnd.oasis.opendocument.text' },
    {
      name: 'META-INF/manifest.xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>`,
    },
    {
      name: 'content.xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" office:version="1.2"><office:body><office:text>${body}</office:text></office:body></office:document-content>`,
    },
  ]);

/** An OLE2 compound file with the given streams (a .doc holds WordDocument, a .xls Workbook). */
export function compound(streams: Record<string, Buffer | string>): Buffer {
  const cfb = CFB.utils.cfb_new();
  for (const [name, data] of Object.entries(streams)) CFB.utils.cfb_add(cfb, `/${name}`, Buffer.from(data));
  return Buffer.from(CFB.write(cfb, { type: 'buffer' }) as Uint8Array);
}

const MAINS: Record<string, [string, string]> = {
  docx: ['word/document.xml', DOCX_MAIN],
  xlsx: ['xl/workbook.xml', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml'],
  pptx: ['ppt/presentation.xml', 'application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml'],
};
const STREAMS: Record<string, string> = { doc: 'WordDocument', xls: 'Workbook', ppt: 'PowerPoint Document' };

/** The smallest file of `type` that passes the type checks (its content is not a real document). */
export async function container(type: string): Promise<Buffer> {
  if (STREAMS[type]) return compound({ [STREAMS[type]]: 'stand-in content' });
  const [part, main] = MAINS[type]!;
  return zip([
    {
      name: '[Content_Types].xml',
      data: `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/${part}" ContentType="${main}"/></Types>`,
    },
    { name: part, data: '<?xml version="1.0"?><x/>' },
  ]);
}
