import cluster, { type Worker } from 'node:cluster';

/** What a worker tells the primary once its server listens. */
export interface WorkerListening {
  type: 'listening';
  url: string;
}

/** A worker that dies sooner than this after its start is not replaced: something is wrong with every start. */
const MIN_LIFETIME_MS = 10_000;

/** What the primary asks of a worker when it is asked to stop: to shut down, or (a second signal) to exit at once. */
interface PrimaryRequest {
  type: 'shutdown' | 'exit-now';
}

/**
 * WORKERS > 1: this process only supervises. It forks that many server processes sharing one port
 * (node:cluster: the primary accepts each connection and hands it to a worker in turn), one after
 * another, so that the first applies the migrations before the next starts. The workers share the
 * database and hear each other's commits (PUBSUB=postgres), like separate instances; a worker that
 * dies is replaced.
 *
 * SIGINT/SIGTERM: each worker is asked to shut down by a message, not a signal, since it may have
 * had the same signal already (Ctrl-C, or systemd, signals the whole process group), and a second
 * signal tells it to exit at once. A second signal here asks every worker to exit at once, and
 * this process exits with 1. Otherwise it exits once every worker has, with 1 if any worker did
 * (its shutdown overran SHUTDOWN_TIMEOUT_MS).
 */
export async function superviseWorkers(workers: number): Promise<void> {
  let closing = false;
  let failed = false;
  const startedAt = new Map<Worker, number>();
  const start = () =>
    new Promise<string>((resolve, reject) => {
      const worker = cluster.fork();
      startedAt.set(worker, Date.now());
      worker.on('message', (m: WorkerListening) => m?.type === 'listening' && resolve(m.url));
      worker.once('exit', (code) => reject(new Error(`worker ${worker.process.pid} exited with ${code} before listening`)));
    });
  const ask = (w: Worker, request: PrimaryRequest) => w.send(request, () => {}); // one gone meanwhile is no error here
  const stopAll = () => {
    const running = alive();
    if (closing) {
      console.error('signal again: stopping every worker at once');
      for (const w of running) ask(w, { type: 'exit-now' });
      process.exit(1);
    }
    closing = true;
    let left = running.length;
    if (left === 0) process.exit(failed ? 1 : 0);
    for (const w of running) {
      // Counted here, as each exits: cluster's own 'exit' event comes after this one.
      w.once('exit', (code, signal) => {
        failed ||= code !== 0 || signal !== null;
        if (--left === 0) process.exit(failed ? 1 : 0);
      });
      ask(w, { type: 'shutdown' });
    }
  };
  // Before the first fork: a signal while the workers start stops them too (they listen for the
  // request from their first moment).
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.removeAllListeners(signal);
    process.on(signal, stopAll);
  }
  let url = '';
  try {
    for (let i = 0; i < workers; i++) url = await start();
  } catch (e) {
    if (closing) return new Promise<void>(() => {}); // stopped while starting: stopAll exits
    throw e;
  }
  console.log(
    `straight-dominoes listening on ${url}/graphql (${workers} worker processes, pids ${alive()
      .map((w) => w.process.pid)
      .join(', ')})`,
  );
  cluster.on('exit', (worker, code, signal) => {
    if (closing) return;
    const lived = Date.now() - (startedAt.get(worker) ?? 0);
    startedAt.delete(worker);
    console.error(`worker ${worker.process.pid} exited (${signal ?? code}) after ${Math.round(lived / 1000)}s`);
    if (lived < MIN_LIFETIME_MS) {
      console.error('it died too soon after starting: stopping the others');
      failed = true;
      return void stopAll();
    }
    start().catch((e: unknown) => console.error(`cannot replace it: ${e instanceof Error ? e.message : String(e)}`));
  });
}

/** The workers that can still be asked something. */
function alive(): Worker[] {
  return Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w && !w.isDead() && w.isConnected());
}

/** In a worker: what to do when the primary asks this worker to stop. */
export function onPrimaryRequest(handlers: { shutdown: () => void; exitNow: () => void }): void {
  if (!cluster.isWorker) return;
  process.on('message', (m: PrimaryRequest) => {
    if (m?.type === 'shutdown') handlers.shutdown();
    else if (m?.type === 'exit-now') handlers.exitNow();
  });
}

/** In a worker: tell the primary this server listens. */
export function reportListening(url: string): void {
  if (cluster.isWorker) process.send?.({ type: 'listening', url } satisfies WorkerListening);
}
