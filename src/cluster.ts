import cluster, { type Worker } from 'node:cluster';

/** What a worker tells the primary once its server listens. */
export interface WorkerListening {
  type: 'listening';
  url: string;
}

/** A worker that dies sooner than this after its start is not replaced: something is wrong with every start. */
const MIN_LIFETIME_MS = 10_000;

/**
 * WORKERS > 1: this process only supervises. It forks that many server processes sharing one port
 * (node:cluster: the primary accepts each connection and hands it to a worker in turn), one after
 * another, so that the first applies the migrations before the next starts. The workers share the
 * database and hear each other's commits (PUBSUB=postgres), like separate instances; a worker that
 * dies is replaced. SIGINT/SIGTERM are passed on, and this process exits once every worker has.
 */
export async function superviseWorkers(workers: number): Promise<void> {
  let closing = false;
  const startedAt = new Map<Worker, number>();
  const start = () =>
    new Promise<string>((resolve, reject) => {
      const worker = cluster.fork();
      startedAt.set(worker, Date.now());
      worker.on('message', (m: WorkerListening) => m?.type === 'listening' && resolve(m.url));
      worker.once('exit', (code) => reject(new Error(`worker ${worker.process.pid} exited with ${code} before listening`)));
    });
  let url = '';
  for (let i = 0; i < workers; i++) url = await start();
  console.log(
    `straight-dominoes listening on ${url}/graphql (${workers} worker processes, pids ${Object.values(cluster.workers ?? {})
      .map((w) => w?.process.pid)
      .join(', ')})`,
  );
  cluster.on('exit', (worker, code, signal) => {
    if (closing) return;
    const lived = Date.now() - (startedAt.get(worker) ?? 0);
    startedAt.delete(worker);
    console.error(`worker ${worker.process.pid} exited (${signal ?? code}) after ${Math.round(lived / 1000)}s`);
    if (lived < MIN_LIFETIME_MS) {
      console.error('it died too soon after starting: stopping the others');
      return void stopAll(1);
    }
    start().catch((e: unknown) => console.error(`cannot replace it: ${e instanceof Error ? e.message : String(e)}`));
  });
  const stopAll = (exitCode: number) => {
    if (closing) return;
    closing = true;
    const alive = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w && !w.isDead());
    let left = alive.length;
    if (left === 0) process.exit(exitCode);
    for (const w of alive) {
      w.once('exit', () => --left === 0 && process.exit(exitCode));
      w.process.kill('SIGTERM');
    }
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => stopAll(0));
  }
}

/** In a worker: tell the primary this server listens. */
export function reportListening(url: string): void {
  if (cluster.isWorker) process.send?.({ type: 'listening', url } satisfies WorkerListening);
}
