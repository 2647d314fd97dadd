// Evidence in every script: a Bundle signed on the engine by people named in many scripts; the
// Certificates of Evidence and the signed PDF are read back with pdfjs and must hold every name as
// given (never "?"), right-to-left names in their reading order.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { withPdfjsDocument } from '../../src/local/documents/intake/pdfText.js';
import type { LocalEngine } from '../../src/local/engine.js';
import { CONTRACT_B64, bundleRequest } from '../helpers.js';
import { useEngine } from './support.js';

const t = useEngine();

const NAMES: Record<string, string> = {
  vi: 'Nguyễn Thị Minh Khai',
  pl: 'Łukasz Żółkiewski-Wąsowicz',
  tr: 'Şükrü Gökçe Ilıcalı',
  el: 'Ελένη Παπαδοπούλου',
  ru: 'Борис Пастернак',
  zh: '王小明',
  ja: '山田 はなこ',
  ko: '김민준',
  ar: 'محمد علي',
  he: 'דוד כהן',
  th: 'สมชาย ใจดี',
  hi: 'राम कुमार',
};

/** Every text item of every page, joined; white space collapsed. */
async function textOf(pdf: Buffer): Promise<string> {
  return withPdfjsDocument(pdf, async (doc) => {
    const parts: string[] = [];
    for (let i = 1; i <= doc.numPages; i++) {
      const content = await (await doc.getPage(i)).getTextContent();
      for (const item of content.items) if ('str' in item) parts.push(item.str, item.hasEOL ? '\n' : '');
    }
    return parts.join('').replace(/[ \t]+/g, ' ');
  });
}

function fileOf(e: LocalEngine, url: string): Buffer {
  const token = new URL(url).pathname.split('/')[2]!;
  return readFileSync(e.blobPath(e.resolveLink(token, 'file')!.target));
}

describe('evidence in every script', () => {
  it('draws every name in the certificates and the signed PDF, read back by pdfjs', async () => {
    const e = t.e;
    const keys = Object.keys(NAMES);
    const fields = keys.map((k, i) => ({
      key: `sig-${k}`,
      kind: 'sig',
      page: 1,
      x: 40 + (i % 3) * 180,
      y: 120 + Math.floor(i / 3) * 50,
      w: 170,
      h: 30,
      editors: [k],
      required: true,
    }));
    const b = await e.createBundle(
      bundleRequest({
        label: 'Hợp đồng thuê nhà / عقد الإيجار / 租赁合同',
        packets: keys.map((k) => ({ key: k, name: NAMES[k], email: `${k}@example.com` })),
        documents: [{ key: 'contract', file_b64: CONTRACT_B64, filename: 'contract.pdf', fields }],
      }),
    );
    for (const p of b.packets) await e.signPacket(p.id, {});
    await e.settle();
    const files = await e.getBundleFiles(b.id);
    const signed = await textOf(fileOf(e, files.find((f) => f.kind === 'signed_pdf')!.file_url));
    const combined = await textOf(fileOf(e, files.find((f) => f.kind === 'combined_pdf')!.file_url));
    for (const k of keys) {
      expect(signed, `signed PDF, ${k}`).toContain(NAMES[k]);
      expect(combined, `combined PDF, ${k}`).toContain(NAMES[k]);
    }
    const coes = files.filter((f) => f.kind === 'coe_pdf');
    expect(coes).toHaveLength(keys.length);
    // Each certificate is named after its signer, in their script.
    expect(coes.find((f) => f.packet_id === b.packets[0]!.id)!.name).toBe(`coe-${b.id}-Nguyễn-Thị-Minh-Khai.pdf`);
    expect(coes.find((f) => f.packet_id === b.packets[8]!.id)!.name).toBe(`coe-${b.id}-محمد-علي.pdf`);
    for (const [i, p] of b.packets.entries()) {
      const coe = coes.find((f) => f.packet_id === p.id)!;
      const text = await textOf(fileOf(e, coe.file_url));
      expect(text, `certificate of ${keys[i]}`).toContain(`Name: ${NAMES[keys[i]!]}`);
      expect(text).toContain('Hợp đồng thuê nhà');
      expect(text).toContain('عقد الإيجار');
      expect(text).toContain('租赁合同');
      expect(text).not.toMatch(/\?/);
    }
  }, 120_000);
});
