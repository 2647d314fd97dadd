// The messages between the server and a sandbox process (structured clone over IPC).
import type { PreparedSpec } from '../intake/prepare.js';

export type SandboxJob =
  | { id: number; kind: 'inspect'; pdf: Uint8Array }
  | { id: number; kind: 'derive'; pdf: Uint8Array; spec: PreparedSpec; index: number }
  | { id: number; kind: 'html'; html: string; fieldsMode: 'native' | 'none'; timeoutMs: number };

/** What a job answers; `cpuMs` is the process's CPU time so far (it is retired when that grows old). */
export type SandboxAnswer =
  | { id: number; ok: true; value: unknown; cpuMs: number }
  | { id: number; ok: false; message: string; cpuMs: number };

/** A job without its id (the pool numbers them). */
export type SandboxTask = SandboxJob extends infer J ? (J extends SandboxJob ? Omit<J, 'id'> : never) : never;
