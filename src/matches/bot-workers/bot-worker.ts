/**
 * A worker thread that chooses bot moves: the expert's search is CPU-bound for tens of
 * milliseconds, so it runs here, never on the event loop that serves players' commands.
 */
import { performance } from 'node:perf_hooks';
import { parentPort } from 'node:worker_threads';
import { chooseBotAction } from '../../domain/index.js';
import type { BotJob, BotJobResult } from './bot-job.js';

parentPort?.on('message', (job: BotJob) => {
  let reply: BotJobResult;
  try {
    const action = chooseBotAction(job.view, job.strategy, job.seed, { nodes: job.nodes, timeMs: job.timeMs, now: () => performance.now() });
    reply = { id: job.id, action };
  } catch (e) {
    reply = { id: job.id, error: e instanceof Error ? e.message : String(e) };
  }
  parentPort?.postMessage(reply);
});
