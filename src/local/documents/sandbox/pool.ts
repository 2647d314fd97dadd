// The processes documents are parsed, searched and rendered in, apart from the server's event loop:
// a child process (not a worker thread: a V8 fatal error in a worker aborts the whole process),
// started with V8's heap cap and, where util-linux's prlimit is present, RLIMIT_DATA (heap, buffers
// and inflated bytes together) and RLIMIT_CPU. Each job has a deadline, counted from its queueing:
// past it the process is SIGKILLed and the next job gets a new one. Where the work is the process's
// own (PDFs, evidence), the document is blamed only if it had the CPU: a job starved by a loaded
// machine (the child runs at nice 10) is the server being busy, said so and not remembered against a
// sound document. A few are kept warm, started on first use and unref'd, so a command that never
// sends a document starts none and one that did exits at once. They serve every engine of the
// process (esign serve's sandboxes are engines too): one closing leaves them warm for the others.
// One idle for SANDBOX_IDLE_MS ends, and all end when the process exits, or is killed (orphans.ts).
// Each process has a temporary directory of its own for whatever it and the programs it starts write
// (Chromium's profile, the files a conversion leaves), removed when it ends, killed or not.
import { type ChildProcess, fork } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  SANDBOX_CPU_SECONDS,
  SANDBOX_DATA_BYTES,
  SANDBOX_HEAP_MB,
  SANDBOX_IDLE_MS,
  SANDBOX_POOL_SIZE,
} from '../../../domain/documentLimits.js';
import { isExecutable, systemTool } from '../intake/findExecutable.js';
import { diesWithParent, processIds, scratchPrefix, sweepOrphansOnce } from './orphans.js';
import type { SandboxAnswer, SandboxJob, SandboxTask } from './protocol.js';

/** A job that failed; `overLimits` when the document passed a cap (its own cost), not a failure of ours. */
export class SandboxFailure extends Error {
  constructor(
    message: string,
    readonly kind: 'limits' | 'busy' | 'failed',
  ) {
    super(message);
  }
}

/** The built child: dist/documentSandbox.js beside the bundle; from the sources (tests), the built one too. */
function childEntry(): string {
  const here = import.meta.url;
  const url = here.endsWith('.ts')
    ? new URL('../../../../dist/documentSandbox.js', here)
    : new URL('./documentSandbox.js', here);
  return fileURLToPath(url);
}

/** A process's /proc stat fields after its name (the parent's pid first), or undefined when gone. */
function statOf(pid: number | string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** Whose CPU says whose fault a deadline is: the sandbox process's own, or with the programs it starts. */
export type CpuOf = 'process' | 'tree';

/**
 * The CPU used so far, in ms (Linux /proc, at USER_HZ, 100 a second), or undefined where it cannot
 * be read: 'process', the process's own (utime + stime); 'tree', with every process below it,
 * living or ended and waited for (cutime + cstime): Chromium's browser, zygote and renderers.
 */
function cpuMsOf(pid: number | undefined, of: CpuOf): number | undefined {
  if (pid === undefined) return undefined;
  const own = statOf(pid);
  if (!own) return undefined;
  if (of === 'process') return (Number(own[11]) + Number(own[12])) * 10;
  const below = new Map<number, number[]>();
  const entries = processIds();
  if (!entries.length) return undefined;
  const ticks = new Map<number, number>();
  for (const e of entries) {
    const f = statOf(e);
    if (!f) continue;
    const [id, parent] = [Number(e), Number(f[1])];
    ticks.set(id, Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]));
    const siblings = below.get(parent);
    if (siblings) siblings.push(id);
    else below.set(parent, [id]);
  }
  let total = 0;
  for (const todo = [pid]; todo.length; ) {
    const p = todo.pop()!;
    total += ticks.get(p) ?? 0;
    todo.push(...(below.get(p) ?? []));
  }
  return total * 10;
}

const BUSY = 'The machine is busy with other documents: try again in a minute.';

/** A job past its deadline was the document's doing if it used at least this share of it as CPU. */
const BLAMED_CPU_SHARE = 0.5;

let prlimitPath: string | null | undefined;
/** util-linux's prlimit, to set the child's rlimits (Node has no setrlimit); null when absent. */
function prlimit(): string | null {
  if (prlimitPath === undefined) prlimitPath = systemTool('ESIGN_PRLIMIT', 'prlimit') ?? null;
  return prlimitPath;
}

/** `nice -n 10` where coreutils' nice is present, else nothing. */
function lowPriority(): string[] {
  const nice = ['/usr/bin/nice', '/bin/nice'].find(isExecutable);
  return nice ? [nice, '-n', '10'] : [];
}

/** Every sandbox process of this process's pools: ended with it when it exits, their directories removed. */
const living = new Set<Child>();
process.once('exit', () => {
  for (const c of living) c.close();
});

interface Running {
  job: SandboxJob;
  subject: string;
  resolve(v: unknown): void;
  reject(e: Error): void;
  timer: NodeJS.Timeout | undefined;
}

class Child {
  readonly proc: ChildProcess;
  running: Running | undefined;
  /** The CPU time when its current job started (ms, counted as `cpuOf` says), where it can be read. */
  private cpuAtStart: number | undefined;
  private cpuOf: CpuOf = 'process';
  dead = false;
  private stderr = '';
  private killedForDeadline = false;
  private closed = false;
  private readonly scratch: string;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    entry: string,
    private readonly released: (c: Child) => void,
    private readonly idleMs: number,
  ) {
    const tool = prlimit();
    // Below the server in the scheduler's eyes: a document that takes all the CPU it may still leaves
    // other keys' requests theirs (on 2 cores a flate bomb otherwise held them for seconds).
    const node = [
      ...lowPriority(),
      ...diesWithParent(),
      process.execPath,
      `--max-old-space-size=${SANDBOX_HEAP_MB}`,
      '--stack-size=2048',
    ];
    sweepOrphansOnce();
    this.scratch = mkdtempSync(scratchPrefix('sandbox'));
    // Others may pass through it, not list it: a converter runs as nobody in a directory made inside.
    chmodSync(this.scratch, 0o711);
    this.proc = fork(entry, [this.scratch], {
      execPath: tool ?? node[0],
      execArgv: tool ? [`--data=${SANDBOX_DATA_BYTES}`, `--cpu=${SANDBOX_CPU_SECONDS}`, '--', ...node] : node.slice(1),
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    this.proc.stderr?.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString('utf8')).slice(-4096);
    });
    this.proc.on('message', (a: SandboxAnswer) => this.answered(a));
    this.proc.on('error', (e) => this.gone(`the document sandbox could not start (${e.message})`));
    this.proc.on('exit', (code, signal) => {
      this.removeScratch();
      this.gone(this.why(code, signal));
    });
    living.add(this);
    this.idle();
  }

  private removeScratch(): void {
    try {
      rmSync(this.scratch, { recursive: true, force: true, maxRetries: 3 });
    } catch (e) {
      // A program it started may still be writing there as it dies: said as the engine's reports are
      // to a host that gave no sink (a process warning), and never a crash.
      process.emitWarning(`esign: could not remove the document sandbox's ${this.scratch}: ${(e as Error).message}`, {
        code: 'ESIGN_REPORT',
      });
    }
  }

  /** A process that holds no job keeps nothing alive: a CLI that checked one PDF exits at once. */
  private idle(): void {
    this.idleTimer = setTimeout(() => this.close(), this.idleMs);
    this.idleTimer.unref();
    this.proc.unref();
    this.proc.channel?.unref();
    (this.proc.stderr as { unref?(): void } | null)?.unref?.();
  }

  start(r: Running, cpuOf: CpuOf = 'process'): void {
    clearTimeout(this.idleTimer);
    this.running = r;
    this.cpuOf = cpuOf;
    this.cpuAtStart = cpuMsOf(this.proc.pid, cpuOf);
    this.proc.ref();
    this.proc.channel?.ref();
    this.proc.send(r.job);
  }

  /** CPU the current job has used (ms), or undefined where it cannot be read. */
  jobCpuMs(): number | undefined {
    const now = cpuMsOf(this.proc.pid, this.cpuOf);
    return now === undefined || this.cpuAtStart === undefined ? undefined : now - this.cpuAtStart;
  }

  /** Ends the job at its deadline: the process is killed, not asked. */
  killForDeadline(): void {
    this.killedForDeadline = true;
    this.proc.kill('SIGKILL');
  }

  /** Ends an idle process (or any, as the process exits): no job may be given to it meanwhile, and its end is nobody's failure. */
  close(): void {
    clearTimeout(this.idleTimer);
    living.delete(this);
    this.dead = true;
    this.closed = true;
    this.proc.kill('SIGKILL');
    // Now too: the process that closes it may end before the exit is heard.
    this.removeScratch();
  }

  private why(code: number | null, signal: NodeJS.Signals | null): string {
    if (this.killedForDeadline || this.closed) return '';
    if (/heap out of memory|allocation failed|invalid size error|Invalid array length/i.test(this.stderr))
      return 'it needs more memory than a document may take';
    if (signal === 'SIGXCPU' || signal === 'SIGKILL') return 'it needs more CPU time than a document may take';
    if (signal === 'SIGABRT' || code === 134) return 'it needs more memory than a document may take';
    return `the document sandbox ended (${signal ?? `exit code ${code}`})`;
  }

  private answered(a: SandboxAnswer): void {
    const r = this.running;
    if (!r || a.id !== r.job.id) return;
    this.running = undefined;
    clearTimeout(r.timer);
    this.idle();
    if (a.ok) r.resolve(a.value);
    else
      r.reject(
        new SandboxFailure(a.message, a.message.includes('exceeds the processing limits') ? 'limits' : 'failed'),
      );
    // Its CPU limit is for its whole life: retired at half of it, a process never reaches it mid-job.
    if (a.cpuMs > (SANDBOX_CPU_SECONDS * 1000) / 2) this.close();
    else this.released(this); // not gone: free for the next job
  }

  private gone(why: string): void {
    clearTimeout(this.idleTimer);
    living.delete(this);
    const r = this.running;
    this.running = undefined;
    if (r) {
      clearTimeout(r.timer);
      if (why) r.reject(new SandboxFailure(`${r.subject} exceeds the processing limits: ${why}.`, 'limits'));
    }
    this.dead = true;
    this.released(this);
  }
}

interface Queued {
  task: SandboxTask;
  subject: string;
  deadlineMs: number;
  cpuOf: CpuOf | undefined;
  /** Infinity: the deadline counts from the job's start, and it waits in the queue as long as it must. */
  deadlineAt: number;
  /** Until when it may wait for a process, and (with cpuOf) for the CPU, before it is busy. */
  waitUntil: number;
  resolve(v: unknown): void;
  reject(e: Error): void;
  timer: NodeJS.Timeout | undefined;
}

/** The warm processes and the jobs waiting for one. */
export class SandboxPool {
  private children = new Set<Child>();
  private queue: Queued[] = [];
  private nextId = 1;

  constructor(
    private readonly size = SANDBOX_POOL_SIZE,
    private readonly idleMs = SANDBOX_IDLE_MS,
  ) {}

  /**
   * Runs `task` in a sandbox process. It fails with a SandboxFailure: 'limits' when the document
   * passed a cap, or its deadline while having the CPU; 'busy' when no process was free before the
   * deadline, or (`cpuOf`) the job was starved of CPU until it.
   */
  run<T>(
    task: SandboxTask,
    opts: {
      deadlineMs: number;
      subject: string;
      counting?: 'queued' | 'started';
      /**
       * Whose CPU says whose fault a deadline is: the sandbox process's ('process', the work runs in
       * it), or its and the programs' it starts ('tree', Chromium). Unset: the deadline is the verdict.
       */
      cpuOf?: CpuOf;
      /**
       * With counting 'queued': how long in all it may wait for a process and (with cpuOf) for the
       * CPU before it is busy. Past its deadline a job starved so far waits on until it has had its
       * share of CPU (then it is over the limits) or this is up. Unset: the deadline.
       */
      waitMs?: number;
    },
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const fromQueueing = (opts.counting ?? 'queued') === 'queued';
      const waitMs = fromQueueing ? Math.max(opts.deadlineMs, opts.waitMs ?? 0) : 0;
      const q: Queued = {
        task,
        subject: opts.subject,
        deadlineMs: opts.deadlineMs,
        cpuOf: opts.cpuOf,
        deadlineAt: fromQueueing ? Date.now() + opts.deadlineMs : Number.POSITIVE_INFINITY,
        waitUntil: Date.now() + waitMs,
        resolve: resolve as (v: unknown) => void,
        reject,
        timer: fromQueueing
          ? setTimeout(() => {
              this.queue = this.queue.filter((x) => x !== q);
              reject(new SandboxFailure(BUSY, 'busy'));
            }, waitMs)
          : undefined,
      };
      this.queue.push(q);
      this.pump();
    });
  }

  /** Ends every idle process (a running job keeps its own, and ends it when done or killed). */
  close(): void {
    for (const c of this.children) if (!c.running) c.close();
  }

  private pump(): void {
    while (this.queue.length) {
      let free = [...this.children].find((c) => !c.running && !c.dead);
      if (!free && this.children.size < this.size) {
        free = new Child(childEntry(), (c) => this.released(c), this.idleMs);
        this.children.add(free);
      }
      if (!free) return;
      const q = this.queue.shift()!;
      clearTimeout(q.timer);
      const child = free;
      const left = Number.isFinite(q.deadlineAt) ? Math.max(1, q.deadlineAt - Date.now()) : q.deadlineMs;
      const seconds = q.deadlineMs / 1000;
      const share = q.deadlineMs * BLAMED_CPU_SHARE;
      const running: Running = {
        job: { ...q.task, id: this.nextId++ } as SandboxJob,
        subject: q.subject,
        resolve: q.resolve,
        reject: q.reject,
        timer: undefined,
      };
      const atDeadline = () => {
        const cpu = q.cpuOf ? child.jobCpuMs() : undefined;
        const starved = cpu !== undefined && cpu < share;
        const waitLeft = q.waitUntil - Date.now();
        if (starved && waitLeft > 0) {
          // It cannot have had its share before it has had the CPU it lacks: looked at again then.
          running.timer = setTimeout(atDeadline, Math.min(waitLeft, Math.max(1000, share - cpu)));
          return;
        }
        q.reject(
          starved
            ? new SandboxFailure(BUSY, 'busy')
            : new SandboxFailure(
                `${q.subject} exceeds the processing limits: it was not done within ${seconds} s.`,
                'limits',
              ),
        );
        child.killForDeadline();
      };
      running.timer = setTimeout(atDeadline, left);
      child.start(running, q.cpuOf);
    }
  }

  private released(c: Child): void {
    if (c.dead) this.children.delete(c);
    this.pump();
  }
}
