// What an office file must be before LibreOffice sees it: what its extension says (an OOXML package
// with the right main part, or an OLE2 compound file with the right stream), inflating within bounds,
// and linking to nothing outside itself (external relationships, linked images, fields that fetch).
// Refused, not stripped: a document that changes between what was sent and what is signed is worse
// than one refused with the reason (docs/security.md, "Converters").
import type { Readable } from 'node:stream';
import type { Entry, ZipFile } from 'yauzl';

/** Bounds on an OOXML package, checked from its central directory and again as each entry inflates. */
export const OFFICE_ZIP_LIMITS = {
  entries: 5_000,
  /** All entries inflated. */
  inflatedBytes: 256 * 1024 * 1024,
  /** Inflated over compressed, for an entry past `ratioFrom` bytes inflated. */
  ratio: 200,
  ratioFrom: 1024 * 1024,
  /** One field instruction, or a run of text between two tags we read whole. */
  scanUnit: 1024 * 1024,
};

const MAIN_PART: Record<string, { re: RegExp; name: string }> = {
  docx: { re: /(wordprocessingml\.(document|template)|ms-word\.[\w.]+)\.main\+xml/, name: 'a Word document' },
  xlsx: { re: /(spreadsheetml\.(sheet|template)|ms-excel\.[\w.]+)\.main\+xml/, name: 'an Excel workbook' },
  pptx: {
    re: /(presentationml\.(presentation|template|slideshow)|ms-powerpoint\.[\w.]+)\.main\+xml/,
    name: 'a PowerPoint presentation',
  },
};
/** The stream each legacy binary format keeps its content in. */
const MAIN_STREAM: Record<string, { streams: string[]; name: string }> = {
  doc: { streams: ['WordDocument'], name: 'a Word 97-2003 document' },
  xls: { streams: ['Workbook', 'Book'], name: 'an Excel 97-2003 workbook' },
  ppt: { streams: ['PowerPoint Document'], name: 'a PowerPoint 97-2003 presentation' },
};
/** Field types that fetch or include what is outside the document. */
const FETCHING_FIELDS = /^(INCLUDEPICTURE|INCLUDETEXT|INCLUDE|LINK|DDE|DDEAUTO|IMPORT)$/i;
/** Relationships to outside the package that are only written into the PDF (a link), never fetched. */
const HARMLESS_EXTERNAL = /\/hyperlink$/;

const refuse = (type: string, why: string) => new Error(`The .${type} file ${why}`);

/** Throws a clear reason when `data` is not a safe office file of `type` (docx, xlsx, pptx, doc, xls, ppt). */
export async function checkOfficeFile(data: Buffer, type: string, opts: { boxed: boolean }): Promise<void> {
  const head = data.subarray(0, 8);
  const isZip = head.subarray(0, 4).equals(Buffer.from('PK\x03\x04', 'latin1'));
  const isOle = head.equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]));
  if (MAIN_PART[type]) {
    if (!isZip) throw refuse(type, `is not an Office Open XML document (not a ZIP archive${describe(data, isOle)}).`);
    return checkPackage(data, type);
  }
  if (MAIN_STREAM[type]) {
    if (!isOle)
      throw refuse(type, `is not ${MAIN_STREAM[type].name} (not an OLE2 compound file${describe(data, isOle)}).`);
    return checkCompound(data, type, opts.boxed);
  }
  throw refuse(type, 'is not an office format esign converts.');
}

/** What the bytes look like instead, for the refusal. */
function describe(data: Buffer, isOle: boolean): string {
  if (isOle) return ': it is an OLE2 compound file, a 97-2003 format';
  if (data.subarray(0, 4).toString('latin1') === 'PK\x03\x04') return ': it is a ZIP archive';
  const start = data.subarray(0, 512).toString('latin1').trimStart().toLowerCase();
  if (/^(<!doctype html|<html|<head|<body)/.test(start)) return ': it is HTML';
  if (start.startsWith('{\\rtf')) return ': it is RTF';
  if (start.startsWith('%pdf-')) return ': it is a PDF';
  if (start.startsWith('<?xml')) return ': it is XML';
  return '';
}

// ---- Office Open XML (a ZIP package) ----

async function checkPackage(data: Buffer, type: string): Promise<void> {
  const yauzl = await import('yauzl');
  const zip = await new Promise<ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(data, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false }, (e, z) =>
      e ? reject(refuse(type, `is not a readable ZIP archive (${e.message}).`)) : resolve(z!),
    ),
  );
  try {
    const L = OFFICE_ZIP_LIMITS;
    if (zip.entryCount > L.entries)
      throw refuse(type, `holds ${zip.entryCount} entries; at most ${L.entries} are accepted.`);
    const entries = await listEntries(zip);
    let total = 0;
    for (const e of entries) {
      total += e.uncompressedSize;
      if (total > L.inflatedBytes)
        throw refuse(
          type,
          `inflates past ${L.inflatedBytes / 1024 / 1024} MB; that is more than an office file holds.`,
        );
      if (e.uncompressedSize > L.ratioFrom && e.uncompressedSize > L.ratio * Math.max(1, e.compressedSize))
        throw refuse(type, `holds "${e.fileName}", compressed more than ${L.ratio} to 1: a ZIP bomb.`);
      if (e.isEncrypted()) throw refuse(type, `holds an encrypted entry ("${e.fileName}").`);
    }
    const types = entries.find((e) => e.fileName === '[Content_Types].xml');
    if (!types) {
      const mime = entries.find((e) => e.fileName === 'mimetype');
      const odf = mime ? (await readText(zip, mime, 200)).trim() : '';
      if (odf.startsWith('application/vnd.oasis.opendocument'))
        throw refuse(
          type,
          `is an OpenDocument file (${odf}), not an Office Open XML document: send it as .odt/.ods/.odp to a converter that takes them, or save it as .${type}.`,
        );
      throw refuse(type, 'is a ZIP archive but not an Office Open XML document (no [Content_Types].xml).');
    }
    const contentTypes = await readText(zip, types, 4 * 1024 * 1024);
    const main = MAIN_PART[type]!;
    if (!main.re.test(contentTypes)) {
      const other = Object.entries(MAIN_PART).find(([, m]) => m.re.test(contentTypes));
      throw refuse(
        type,
        other
          ? `is ${other[1].name} (.${other[0]}), not ${main.name}.`
          : `is an Office Open XML package without the main part of ${main.name}.`,
      );
    }
    for (const e of entries) {
      if (/\/$/.test(e.fileName) || !/\.(xml|rels|vml)$/i.test(e.fileName)) {
        await drain(zip, e); // inflated once, so that a lying size in the directory is caught here
        continue;
      }
      const scanner = new XmlScanner(e.fileName, /\.rels$/i.test(e.fileName));
      await forEachChunk(zip, e, (text) => scanner.feed(text));
      const problem = scanner.end();
      if (problem) throw refuse(type, problem);
    }
  } finally {
    zip.close();
  }
}

function listEntries(zip: ZipFile): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    const all: Entry[] = [];
    zip.on('entry', (e: Entry) => {
      all.push(e);
      zip.readEntry();
    });
    zip.once('end', () => resolve(all));
    zip.once('error', reject);
    zip.readEntry();
  });
}

const openStream = (zip: ZipFile, e: Entry) =>
  new Promise<Readable>((resolve, reject) => zip.openReadStream(e, (err, s) => (err ? reject(err) : resolve(s!))));

async function forEachChunk(zip: ZipFile, e: Entry, onText: (t: string) => void): Promise<void> {
  const stream = await openStream(zip, e);
  const { StringDecoder } = await import('node:string_decoder');
  const decoder = new StringDecoder('utf8');
  try {
    for await (const chunk of stream) onText(decoder.write(chunk as Buffer));
  } catch (err) {
    stream.destroy();
    throw new Error(`The office file's entry "${e.fileName}" is damaged: ${(err as Error).message}`);
  }
  onText(decoder.end());
}

async function drain(zip: ZipFile, e: Entry): Promise<void> {
  await forEachChunk(zip, e, () => {});
}

async function readText(zip: ZipFile, e: Entry, max: number): Promise<string> {
  if (e.uncompressedSize > max) throw new Error(`The office file's "${e.fileName}" is too large to read.`);
  let text = '';
  await forEachChunk(zip, e, (t) => {
    text += t;
  });
  return text;
}

const decodeXml = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, ent: string) => {
    const e = ent.toLowerCase();
    if (e.startsWith('#x')) return String.fromCodePoint(Number.parseInt(e.slice(2), 16) || 0);
    if (e.startsWith('#')) return String.fromCodePoint(Number.parseInt(e.slice(1), 10) || 0);
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[e]!;
  });
const attrOf = (tag: string, name: string) => {
  const m = new RegExp(`\\s(?:[\\w.-]+:)?${name}\\s*=\\s*("([^"]*)"|'([^']*)')`).exec(tag);
  return m ? decodeXml(m[2] ?? m[3] ?? '') : undefined;
};
const hasScheme = (target: string) => /^\s*([a-z][a-z0-9+.-]*:|[\\/]{2})/i.test(target);

/**
 * Reads one XML part as it inflates, in pieces cut before a '<', so every tag and every text run
 * between two tags is seen whole: relationships that point outside, field instructions that fetch,
 * and spreadsheet formulas that fetch or talk DDE.
 */
class XmlScanner {
  private carry = '';
  private problem: string | undefined;
  /** The instruction of each open complex field (w:fldChar begin ... separate/end). */
  private fields: string[] = [];
  private inInstr = false;
  private inFormula = false;

  constructor(
    private readonly part: string,
    private readonly rels: boolean,
  ) {}

  feed(text: string): void {
    if (this.problem) return;
    const all = this.carry + text;
    const cut = all.lastIndexOf('<');
    if (cut <= 0) {
      this.carry = all;
      if (this.carry.length > OFFICE_ZIP_LIMITS.scanUnit)
        this.problem = `has a run of text in "${this.part}" too long to check.`;
      return;
    }
    this.carry = all.slice(cut);
    this.scan(all.slice(0, cut));
  }

  end(): string | undefined {
    if (!this.problem) this.scan(this.carry);
    for (const f of this.fields) this.checkInstruction(f);
    return this.problem;
  }

  private scan(text: string): void {
    for (const m of text.matchAll(/<([^>]*)>([^<]*)/g)) {
      if (this.problem) return;
      const tag = m[1]!;
      const after = m[2]!;
      const name = /^\/?\s*(?:[\w.-]+:)?([\w.-]+)/.exec(tag)?.[1] ?? '';
      const closing = tag.startsWith('/');
      if (this.rels && name === 'Relationship' && !closing) this.checkRelationship(tag);
      else if (name === 'fldChar' && !closing) {
        const kind = attrOf(tag, 'fldCharType');
        if (kind === 'begin') this.fields.push('');
        else if (kind === 'separate' || kind === 'end') {
          const done = this.fields.pop();
          if (done !== undefined) this.checkInstruction(done);
          if (kind === 'separate') this.fields.push('\0'); // its instruction is complete; its result follows
        }
      } else if (name === 'fldSimple' && !closing) this.checkInstruction(attrOf(tag, 'instr') ?? '');
      else if (name === 'instrText') this.inInstr = !closing && !tag.endsWith('/');
      else if (name === 'f' && !this.rels) this.inFormula = !closing && !tag.endsWith('/');
      else if ((name === 'ddeLink' || name === 'oleLink') && !closing)
        this.problem = `holds a ${name === 'ddeLink' ? 'DDE' : 'OLE'} link ("${this.part}"), which reaches outside the file.`;
      if (this.inInstr && after) {
        const open = this.fields.length - 1;
        if (open >= 0 && this.fields[open] !== '\0') {
          this.fields[open] += decodeXml(after);
          if (this.fields[open]!.length > OFFICE_ZIP_LIMITS.scanUnit)
            this.problem = `has a field instruction in "${this.part}" too long to check.`;
        } else this.checkInstruction(decodeXml(after));
      }
      if (this.inFormula && /\b(?:_xlfn\.)?(WEBSERVICE|DDE)\s*\(|\|\s*'/i.test(decodeXml(after)))
        this.problem = `has a formula in "${this.part}" that fetches from outside the file (WEBSERVICE or DDE).`;
    }
  }

  private checkInstruction(instr: string): void {
    if (this.problem || instr === '\0') return;
    const word = instr.trim().split(/[\s"\\]/)[0] ?? '';
    if (FETCHING_FIELDS.test(word))
      this.problem = `has a ${word.toUpperCase()} field in "${this.part}", which fetches from outside the file; such fields are refused.`;
  }

  private checkRelationship(tag: string): void {
    const target = attrOf(tag, 'Target') ?? '';
    const external = /^external$/i.test(attrOf(tag, 'TargetMode') ?? '');
    const relType = attrOf(tag, 'Type') ?? '';
    if (HARMLESS_EXTERNAL.test(relType)) return;
    if (external || hasScheme(target)) {
      const kind = relType.split('/').at(-1) || 'resource';
      this.problem = `links to an outside ${kind} from "${this.part}" (an external relationship); linked images, templates and frames are refused: embed them instead.`;
    }
  }
}

// ---- Legacy binary formats (an OLE2 compound file) ----

async function checkCompound(data: Buffer, type: string, boxed: boolean): Promise<void> {
  const CFB = (await import('cfb')).default;
  let doc: ReturnType<typeof CFB.read>;
  try {
    doc = CFB.read(data, { type: 'buffer' });
  } catch (e) {
    throw refuse(type, `is not a readable OLE2 compound file (${(e as Error).message}).`);
  }
  const names = new Set(doc.FileIndex.filter((f) => f.type === 2).map((f) => f.name));
  const want = MAIN_STREAM[type]!;
  if (!want.streams.some((s) => names.has(s))) {
    const other = Object.entries(MAIN_STREAM).find(([, m]) => m.streams.some((s) => names.has(s)));
    throw refuse(
      type,
      other
        ? `is ${other[1].name} (.${other[0]}), not ${want.name}.`
        : `is an OLE2 compound file without the "${want.streams[0]}" stream of ${want.name}.`,
    );
  }
  const word = doc.FileIndex.find((f) => f.type === 2 && f.name === 'WordDocument');
  if (word?.content) {
    const field = fetchingBinaryField(Buffer.from(word.content as Uint8Array));
    if (field)
      throw refuse(type, `has a ${field} field, which fetches from outside the file; such fields are refused.`);
  }
  // Unboxed, LibreOffice could follow any link the file holds, and a binary file's links cannot be
  // told from its text: any address in it is refused.
  if (!boxed)
    for (const f of doc.FileIndex) {
      if (f.type !== 2 || !f.content) continue;
      const bytes = Buffer.from(f.content as Uint8Array);
      for (const text of [bytes.toString('latin1'), bytes.toString('utf16le'), bytes.subarray(1).toString('utf16le')])
        if (/\b(file|https?|ftp|smb|dav|webdavs?):|\\\\[\w.-]+\\/i.test(text))
          throw refuse(
            type,
            'names an outside address, and this server cannot convert without a sandbox (bubblewrap) a 97-2003 file that does.',
          );
    }
}

/** A Word field (0x13, instruction, 0x14 or 0x15) whose instruction fetches, in 8-bit or UTF-16 text. */
function fetchingBinaryField(stream: Buffer): string | undefined {
  const re = /\x13\s*([A-Za-z]+)/g;
  for (const text of [stream.toString('latin1'), stream.toString('utf16le'), stream.subarray(1).toString('utf16le')])
    for (const m of text.matchAll(re)) if (FETCHING_FIELDS.test(m[1]!)) return m[1]!.toUpperCase();
  return undefined;
}
