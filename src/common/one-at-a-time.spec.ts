import { OneAtATime } from './one-at-a-time.js';

const tick = () => new Promise((r) => setImmediate(r));

describe('OneAtATime', () => {
  it('runs the tasks of one key in arrival order, each after the previous one has settled', async () => {
    const queue = new OneAtATime();
    const log: string[] = [];
    const task =
      (name: string, fail = false) =>
      async () => {
        log.push(`${name} start`);
        await tick();
        log.push(`${name} end`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([queue.run('m', task('a')), queue.run('m', task('b', true)), queue.run('m', task('c'))]);
    expect(log).toEqual(['a start', 'a end', 'b start', 'b end', 'c start', 'c end']);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });

  it('runs tasks of different keys side by side, and forgets a key once its tasks are done', async () => {
    const queue = new OneAtATime();
    const log: string[] = [];
    let release!: () => void;
    const held = queue.run('m1', () => new Promise<void>((r) => (release = r)).then(() => void log.push('m1')));
    await queue.run('m2', async () => void log.push('m2'));
    expect(log).toEqual(['m2']); // m2 did not wait for m1
    await tick();
    expect(queue.busyKeys).toBe(1);
    release();
    await held;
    await tick();
    expect(log).toEqual(['m2', 'm1']);
    expect(queue.busyKeys).toBe(0);
  });
});
