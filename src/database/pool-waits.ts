import type pg from 'pg';

type Connect = pg.Pool['connect'];

/**
 * Reports how long each checkout of `pool` waited for a free connection (the pool's own queue;
 * `pool.query` checks out through `connect` too). Only installed with METRICS=true.
 */
export function timePoolWaits(pool: pg.Pool, observe: (seconds: number) => void): void {
  const connect = pool.connect.bind(pool) as (cb?: (err: Error | undefined, client: pg.PoolClient, done: () => void) => void) => unknown;
  const timed = (cb?: (err: Error | undefined, client: pg.PoolClient, done: () => void) => void) => {
    const start = performance.now();
    const seen = () => observe((performance.now() - start) / 1000);
    if (cb)
      return connect((err, client, done) => {
        seen();
        cb(err, client, done);
      });
    return (connect() as Promise<pg.PoolClient>).then((client) => {
      seen();
      return client;
    });
  };
  pool.connect = timed as Connect;
}
