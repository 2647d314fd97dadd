// What `esign scenario init` writes: a commented scenario that walks the format (an NDA to two
// signers in order, a reminder after a clock move, the webhooks, the signed files downloaded and
// verified, a tampered copy refused), the one-page PDF it sends, and the format's JSON Schema
// for editors.
import { PDFDocument, StandardFonts } from 'pdf-lib';

export const EXAMPLE_FILE = 'nda.scenario.yaml';
export const EXAMPLE_PDF = 'nda.pdf';
export const SCHEMA_FILE = 'scenario.schema.json';

export const EXAMPLE = `# yaml-language-server: $schema=./${SCHEMA_FILE}
# An esign scenario: one story, run step by step with
#   esign scenario run ${EXAMPLE_FILE}
# It runs on a fresh local engine of its own (your data is not touched); -p PROFILE or
# --backend URL runs it against an esign serve instead. Each step does one thing; a step's
# name lets later steps use its answer: \${nda.id}, \${nda.packets[0].id}.
name: NDA to two signers in order

# Defaults for \${env.NAME}; the environment wins (RUN_ID=42 esign scenario run ...).
env:
  RUN_ID: local

# A webhook receiver on 127.0.0.1, registered before the first step and removed after the last.
receiver:
  events: [bundle_sent, packet_complete, bundle_complete, bundle_docs_ready]

steps:
  # Any operation of the API by its name (esign api lists them), with its body or a spec file.
  - name: nda
    call: createBundle
    body:
      label: Mutual NDA (run \${env.RUN_ID})
      in_order: true # Ada signs first, then Bob
      reminder_offset: 1 # a reminder one day after sending, to the signer whose turn it is
      packets:
        - { key: ada, name: Ada Lovelace, email: ada@example.com }
        - { key: bob, name: Bob Babbage, email: bob@example.com }
      documents:
        - { key: nda, file_path: ${EXAMPLE_PDF} } # read from beside this file
    expect: # what the answer must hold, by path
      status: se
      packets[0].status: se

  # Time moves only when a step moves it: a day and a minute on, Ada is reminded.
  - advance: 1d1m
  - outbox: { bundle: "\${nda.id}", kind: reminder }
    expect:
      "[*].recipient": [ada@example.com]

  # The signers act, each chosen by key, email or order. (Quote a reference inside { }.)
  - sign: { bundle: "\${nda.id}", signer: ada }
  - sign: { bundle: "\${nda.id}", signer: bob@example.com }
  - wait: { bundle: "\${nda.id}", until: docs-ready, timeout: 60s }

  # What the receiver got: every signature checked, these event types, in any order.
  - webhooks:
      bundle: "\${nda.id}"
      events: [bundle_sent, packet_complete, packet_complete, bundle_complete, bundle_docs_ready]

  # The Bundle's own events, in this order (others may come between).
  - events: { bundle: "\${nda.id}", in_order: [bl, pr, ps, ps, bk, fr] }

  # The signed files, each checked against the SHA-256 the API gives, then verified.
  - name: files
    download: { bundle: "\${nda.id}" }
  - verify: { files: "\${files.signed}" }

  # A copy with one byte changed is refused.
  - name: forged
    tamper: { file: "\${files.signed[0]}" }
  - verify: { files: "\${forged.path}", valid: false }
`;

/** A one-page agreement to sign. */
export async function examplePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  page.drawText('Mutual Non-Disclosure Agreement', { x: 72, y: 700, size: 20, font: bold });
  const lines = [
    'The parties agree to keep confidential what each discloses to the other,',
    'to use it only to evaluate a possible collaboration, and to return or',
    'destroy it on request. This agreement lasts two years from signing.',
  ];
  lines.forEach((line, i) => page.drawText(line, { x: 72, y: 650 - i * 18, size: 12, font }));
  page.drawText('Signed:', { x: 72, y: 540, size: 12, font: bold });
  return doc.save();
}
