// The sandbox process (built as dist/documentSandbox.js, started by pool.ts): it takes one job at a
// time over IPC, parses, searches or renders a client's document within the bounds of
// domain/pdfBounds.ts, and answers; the signed copies of a completed Bundle's documents (drawn
// over the client's PDF, its form flattened) are made here too. HTML is parsed here (parse5) whichever renderer lays it out:
// Chromium, when used, is driven from here too, in its own box. Its memory and CPU are capped by the command that starts it; a
// job over its deadline is ended by killing this process.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { inspectPdf } from '../../../domain/documentChecks.js';
import { OVER_LIMITS } from '../../../domain/pdfBounds.js';
import type { SandboxAnswer, SandboxJob } from './protocol.js';

// The directory pool.ts made for this process: every temporary file of its work goes there.
const scratch = process.argv[2];
if (scratch) process.env.TMPDIR = scratch;

async function perform(job: SandboxJob): Promise<unknown> {
  switch (job.kind) {
    case 'inspect':
      return inspectPdf(readFileSync(job.pdfPath));
    case 'derive': {
      const pdf = readFileSync(job.pdfPath);
      // The page tree is walked bounded first: pdf-lib's and pdfjs's own walks trust it.
      const info = await inspectPdf(pdf);
      if ('problem' in info) return info;
      const { deriveFields } = await import('../intake/prepare.js');
      return deriveFields(pdf, job.spec, job.index);
    }
    case 'office': {
      const { checkOfficeFile } = await import('../intake/officeCheck.js');
      await checkOfficeFile(readFileSync(job.path), job.type, { boxed: job.boxed });
      return null;
    }
    case 'signed': {
      // The stored PDF is walked bounded first, as at its check: pdf-lib's own walk trusts it.
      const original = readFileSync(job.pdfPath);
      const info = await inspectPdf(original);
      if ('problem' in info) throw new Error(info.problem.replace(/^The PDF\b/, `The document "${job.doc.name}"`));
      const { signedPdf } = await import('../../evidence/evidence.js');
      const pdf = await signedPdf(job.bundle, { ...job.doc, pdf: original }, job.values, job.interim);
      writeFileSync(job.outPath, pdf, { mode: 0o600 });
      return null;
    }
    case 'combined': {
      const { combinedPdf } = await import('../../evidence/evidence.js');
      const pdf = await combinedPdf(
        job.bundle,
        job.pdfPaths.map((p) => readFileSync(p)),
      );
      writeFileSync(job.outPath, pdf, { mode: 0o600 });
      return null;
    }
    case 'certificate': {
      const { certificateOfEvidence } = await import('../../evidence/evidence.js');
      const pdf = await certificateOfEvidence(job.bundle, job.packet, job.docs, job.values, job.combinedSha256);
      writeFileSync(job.outPath, pdf, { mode: 0o600 });
      return null;
    }
    case 'html': {
      const { renderHtml } = await import('../intake/html.js');
      const r = await renderHtml(readFileSync(job.htmlPath, 'utf8'), {
        fieldsMode: job.fieldsMode,
        renderer: job.renderer,
        timeoutMs: job.timeoutMs,
      });
      return { ...r, pdf: new Uint8Array(r.pdf) };
    }
  }
}

/** A failure to answer with: an allocation or a recursion over the caps names the limit. */
function reason(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  if (e instanceof RangeError) {
    if (/call stack/i.test(message)) return `${OVER_LIMITS} its objects nest too deeply.`;
    if (/alloc|invalid (array|string|typed array) length|too large|size/i.test(message))
      return `${OVER_LIMITS} it needs more memory than a document may take.`;
  }
  return message.split('\n')[0] ?? message;
}

process.on('message', (job: SandboxJob) => {
  perform(job).then(
    (value) => answer({ id: job.id, ok: true, value, cpuMs: cpuMs() }),
    (e) => answer({ id: job.id, ok: false, message: reason(e), cpuMs: cpuMs() }),
  );
});

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

function answer(a: SandboxAnswer): void {
  process.send?.(a);
}

// The parent may go away without a word (killed): nothing here outlives it, its directory included.
process.on('disconnect', () => {
  if (scratch) rmSync(scratch, { recursive: true, force: true, maxRetries: 3 });
  process.exit(0);
});
