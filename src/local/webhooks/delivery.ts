// This process's side of webhook delivery: the dispatcher made on first use, a run after
// `run-due`, and the first attempts a one-shot command owes before it ends.
import type { EngineContext } from '../store/context.js';
import type { DeliverOptions, Dispatcher, WebhookTiming } from './dispatcher.js';
import { onWebhookQueued } from './queue.js';

export class WebhookDelivery {
  private dispatcher: Dispatcher | undefined;
  /** This process queued webhook events: a one-shot command makes their first attempts before it ends. */
  private queued = false;
  private run: Promise<unknown> | undefined;

  constructor(
    private readonly ctx: EngineContext,
    private readonly timing: WebhookTiming = {},
  ) {
    onWebhookQueued(ctx.db, () => {
      this.queued = true;
      // The rows become visible when the transaction that queued them ends.
      if (this.dispatcher?.running) setImmediate(() => this.dispatcher?.wake());
    });
  }

  /** The webhook dispatcher of this process, made on first use. */
  async get(): Promise<Dispatcher> {
    if (!this.dispatcher) {
      const { Dispatcher } = await import('./dispatcher.js');
      this.dispatcher ??= new Dispatcher(this.ctx, this.timing);
    }
    return this.dispatcher;
  }

  /** Delivers every due webhook event, retries included. */
  async deliverDue(opts: DeliverOptions = {}): Promise<{ delivered: number; failed: number }> {
    return (await this.get()).deliverDue(opts);
  }

  /** Every attempt due now made and recorded, the background run's included (a clock move waits for them). */
  async settle(): Promise<{ delivered: number; failed: number }> {
    await this.run;
    return (await this.get()).settle();
  }

  /** Starts a delivery run in the background unless one is under way or the dispatcher runs continuously. */
  runInBackground(): void {
    if (this.dispatcher?.running || this.run) return;
    this.run = this.deliverDue()
      .catch((e) => this.ctx.report(`esign: webhook delivery failed: ${(e as Error).message}`))
      .finally(() => (this.run = undefined));
  }

  /** Ends delivery: the background run, then (for a one-shot command) first attempts of what it queued. */
  async close(): Promise<void> {
    await this.run;
    if (!this.dispatcher?.running && this.queued && this.ctx.db.open) await (await this.get()).deliverFirstAttempts();
    await this.dispatcher?.close();
  }
}
