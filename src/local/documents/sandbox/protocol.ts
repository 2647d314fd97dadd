// The messages between the server and a sandbox process (structured clone over IPC).
import type { EvidenceBundle, EvidenceDocument, EvidencePacket, EvidenceValue } from '../../evidence/evidence.js';
import type { PreparedSpec } from '../intake/prepare.js';

/**
 * A document travels as a file: a PDF as a private temporary file the parent wrote without blocking (the structured clone
 * of 40 MB held the server's event loop for seconds); the parent removes it after the job.
 */
export type SandboxJob =
  | { id: number; kind: 'inspect'; pdfPath: string }
  | { id: number; kind: 'derive'; pdfPath: string; spec: PreparedSpec; index: number }
  | { id: number; kind: 'office'; path: string; type: string; boxed: boolean }
  /** A signed copy (evidence.ts's signedPdf) of the PDF at `pdfPath`, written to `outPath`. */
  | {
      id: number;
      kind: 'signed';
      pdfPath: string;
      outPath: string;
      bundle: EvidenceBundle;
      doc: Omit<EvidenceDocument, 'pdf'>;
      values: EvidenceValue[];
      interim: boolean;
    }
  /** The signed copies at `pdfPaths` one after the other (evidence.ts's combinedPdf), written to `outPath`. */
  | { id: number; kind: 'combined'; pdfPaths: string[]; outPath: string; bundle: EvidenceBundle }
  /** A signer's Certificate of Evidence (evidence.ts's certificateOfEvidence), written to `outPath`. */
  | {
      id: number;
      kind: 'certificate';
      outPath: string;
      bundle: EvidenceBundle;
      packet: EvidencePacket;
      docs: CertifiedDocument[];
      values: EvidenceValue[];
      combinedSha256: string;
    }
  | {
      id: number;
      kind: 'html';
      htmlPath: string;
      fieldsMode: 'native' | 'none';
      renderer: 'auto' | 'builtin';
      timeoutMs: number;
    };

/** What a job answers; `cpuMs` is the process's CPU time so far (it is retired when that grows old). */
export type SandboxAnswer =
  | { id: number; ok: true; value: unknown; cpuMs: number }
  | { id: number; ok: false; message: string; cpuMs: number };

/** A document as its certificate names it. */
export type CertifiedDocument = Omit<EvidenceDocument, 'pdf'> & { signedSha256: string; pages: number };

/** A job without its id (the pool numbers them). */
export type SandboxTask = SandboxJob extends infer J ? (J extends SandboxJob ? Omit<J, 'id'> : never) : never;
