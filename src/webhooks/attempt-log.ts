import type { RecordedAttempt } from './webhook-records.js';

/**
 * Group commit for the delivery log: attempts that end within `windowMs` of each other (a
 * sweep's batch, sent in parallel) are written by one statement instead of one each, so a busy
 * outbox takes few of the connections the players' commands need. `record` resolves once its
 * attempt is stored, and rejects if that statement failed (the message then falls due again
 * when its lease ends).
 */
export class AttemptLog {
  private pending: { entry: RecordedAttempt; done: (e?: Error) => void }[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly write: (entries: RecordedAttempt[]) => Promise<void>,
    private readonly windowMs = 5,
    private readonly maxBatch = 100,
  ) {}

  record(entry: RecordedAttempt): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ entry, done: (e) => (e === undefined ? resolve() : reject(e)) });
      if (this.pending.length >= this.maxBatch) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.windowMs);
    });
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    this.write(batch.map((b) => b.entry)).then(
      () => batch.forEach((b) => b.done()),
      (e: unknown) => batch.forEach((b) => b.done(e instanceof Error ? e : new Error('the attempts were not recorded'))),
    );
  }
}
