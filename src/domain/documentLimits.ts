// What one document a client sends may make the engine count, hold or spend, in one place: the
// bounds checked before a PDF is walked (pdfBounds.ts), and the caps of the process that parses,
// searches and renders it apart from the server (src/local/documents/sandbox). docs/security.md
// explains each figure.

const MB = 1024 * 1024;

/** Indirect objects (`N G obj`, plus those an object stream says it holds); a 5,000-page contract has ~60,000. */
export const MAX_PDF_OBJECTS = 500_000;
/** Entries of the cross-reference sections (classic subsections, xref stream /Index, /Size). */
export const MAX_XREF_ENTRIES = 500_000;
/** Nesting of arrays and dictionaries (the parsers recurse on it). */
export const MAX_PDF_NESTING = 64;
/** Bytes all the Flate streams of one PDF may inflate to. */
export const MAX_INFLATED_BYTES = 256 * MB;
/** Pages of one document (a DAG or a cycle in the page tree is refused whatever its size). */
export const MAX_PDF_PAGES = 10_000;
/** Nodes of the page tree walked (pages and the /Pages nodes above them). */
export const MAX_PAGE_TREE_NODES = 20_000;

/** V8's old-space cap of a sandbox process, in MB (--max-old-space-size). */
export const SANDBOX_HEAP_MB = 384;
/** A sandbox process's data segment (RLIMIT_DATA, via prlimit where present): heap, buffers, inflated bytes. */
export const SANDBOX_DATA_BYTES = 1024 * MB;
/** A sandbox process's CPU seconds over its life (RLIMIT_CPU): a backstop; it is retired at half of it. */
export const SANDBOX_CPU_SECONDS = 600;
/**
 * A converter process's CPU seconds (RLIMIT_CPU, LibreOffice's and Chromium's, each process they
 * start too): a backstop for one its deadline cannot stop, started unboxed by a host since killed.
 */
export const CONVERTER_CPU_SECONDS = 600;
/** Sandbox processes kept warm (started on first use). */
export const SANDBOX_POOL_SIZE = 2;
/** A warm sandbox process idle this long ends; the next document starts another. */
export const SANDBOX_IDLE_MS = 30_000;
/** Background work on one document (render, check, field placement), from its queueing: past it, killed. */
export const SANDBOX_JOB_DEADLINE_MS = 60_000;
/** The built-in HTML renderer's job: its own 30 s limit (html.ts), and a few seconds to start and answer. */
export const HTML_JOB_DEADLINE_MS = 35_000;
/** A document starved of CPU until its deadline is tried again after this pause, times its tries. */
export const BUSY_PAUSE_MS = 5_000;
/**
 * The checks a create makes before it answers: well below the server's 30 s idle timeout, so the
 * client always gets the answer (a 400 naming the limit) and nothing goes on working unseen.
 */
export const CREATE_CHECK_DEADLINE_MS = 20_000;
/**
 * How long a command's create checks may wait, in all, for a sandbox process and for the CPU to run
 * in, when nobody on a wire waits for the answer (a CLI command, a CI job on a loaded machine): a
 * starved check waits on rather than fail a sound document as busy.
 */
export const COMMAND_CHECK_WAIT_MS = 300_000;
/** A document refused by the sandbox is refused again, without a new parse, for this long (by sha256). */
export const REFUSAL_MEMORY_MS = 10 * 60_000;
