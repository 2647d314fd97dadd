// The background run of one process: pending documents, then pending evidence. One run at a time;
// a kick during a run makes it look again when it ends (a document may arrive after its last look).
import type { EngineContext } from '../store/context.js';
import { processPendingDocuments } from './processor.js';

export class BackgroundRun {
  private running: Promise<unknown> | undefined;
  private again = false;

  constructor(private readonly ctx: () => EngineContext) {}

  /** Starts a run, or asks the one under way to look again. A failing run is reported, never thrown. */
  kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    // Documents are claimed at once (synchronously), so no other process takes this one's work.
    this.running = processPendingDocuments(this.ctx())
      .then(() => import('../evidence/job.js'))
      .then(({ processPendingEvidence }) => processPendingEvidence(this.ctx()))
      .catch((e) => this.ctx().report(`esign: background processing failed: ${(e as Error).message}`))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Waits until no run is under way, including the runs kicked while waiting. */
  async settle(): Promise<void> {
    while (this.running) await this.running;
  }
}
