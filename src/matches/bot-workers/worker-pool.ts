import { existsSync } from 'node:fs';
import { sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config.js';
import { chooseBotAction, SEARCH_TIME_SHARE, type Action, type BotStrategy, type MatchView } from '../../domain/index.js';
import type { BotJob, BotJobResult } from './bot-job.js';
import type { BotMover } from './bot-mover.js';
import { FairQueue } from '../../common/fair-queue.js';

/** Strategies that search; the others decide in microseconds and stay in process. */
const SEARCHING: ReadonlySet<BotStrategy> = new Set(['expert']);

interface Pending {
  job: BotJob;
  resolve: (a: Action) => void;
  reject: (e: Error) => void;
}

/** The compiled worker: beside this file, or under dist/ when running from the TypeScript sources (tests). */
function workerScript(): URL {
  const here = new URL('./bot-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(here))) return here;
  const compiled = fileURLToPath(here).replace(`${sep}src${sep}`, `${sep}dist${sep}src${sep}`);
  if (existsSync(compiled)) return pathToFileURL(compiled);
  throw new Error(`no compiled bot worker at ${fileURLToPath(here)} or ${compiled}: run the build first`);
}

/**
 * Searching bots' moves on a small pool of worker threads (`BOT_WORKERS`): a slow search delays
 * neither a player's command nor other matches' cheap bots. Searches wait for the pool in turns
 * by owner (FairQueue), each owner's in the order they came: a player keeping many bot matches
 * busy queues behind their own searches, not everyone's. Workers start on first use and a worker
 * that dies is replaced, failing only the job it held.
 */
@Injectable()
export class WorkerPoolBotMover implements BotMover, OnApplicationShutdown {
  private readonly logger = new Logger(WorkerPoolBotMover.name);
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Pending>();
  private readonly queue = new FairQueue<Pending>();
  private started = 0;
  private nextId = 1;
  private closed = false;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  choose(view: MatchView, strategy: BotStrategy, seed: number, owner: string): Promise<Action> {
    const nodes = this.config.botSearchNodes;
    const timeMs = this.config.botMoveBudgetMs * SEARCH_TIME_SHARE;
    if (!SEARCHING.has(strategy)) return Promise.resolve(chooseBotAction(view, strategy, seed, { nodes }));
    if (this.closed) return Promise.reject(new Error('the bot worker pool is closed'));
    return new Promise<Action>((resolve, reject) => {
      this.queue.push(owner, { job: { id: this.nextId++, view, strategy, seed, nodes, timeMs }, resolve, reject });
      this.dispatch();
    });
  }

  /** After onModuleDestroy, where BotsService lets its moves in flight (searches too) finish. */
  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    for (const p of this.queue.drain()) p.reject(new Error('the bot worker pool is closed'));
    const workers = [...this.idle, ...this.busy.keys()];
    this.idle.length = 0;
    await Promise.all(workers.map((w) => w.terminate()));
  }

  private dispatch(): void {
    while (this.queue.size > 0) {
      const worker = this.idle.pop() ?? (this.started < this.config.botWorkers ? this.spawn() : null);
      if (!worker) return;
      const pending = this.queue.shift() as Pending;
      this.busy.set(worker, pending);
      worker.postMessage(pending.job);
    }
  }

  private spawn(): Worker {
    this.started++;
    const worker = new Worker(workerScript());
    worker.on('message', (reply: BotJobResult) => {
      const pending = this.busy.get(worker);
      this.busy.delete(worker);
      if (!this.closed) this.idle.push(worker);
      if (pending) {
        if ('action' in reply) pending.resolve(reply.action);
        else pending.reject(new Error(`bot worker: ${reply.error}`));
      }
      this.dispatch();
    });
    worker.on('error', (e) => this.logger.error(`bot worker failed: ${e.message}`));
    worker.on('exit', (code) => {
      const pending = this.busy.get(worker);
      this.busy.delete(worker);
      const at = this.idle.indexOf(worker);
      if (at >= 0) this.idle.splice(at, 1);
      this.started--;
      pending?.reject(new Error(`bot worker exited with code ${code}`));
      if (!this.closed) this.dispatch();
    });
    // An idle pool must not keep the process alive.
    worker.unref();
    return worker;
  }
}
