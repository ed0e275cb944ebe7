/** The worker pool runs the compiled worker (dist/): `npm test` builds first. */
import type { AppConfig } from '../../config/config.js';
import { chooseBotAction, newMatch, resolveRules, viewFor } from '../../domain/index.js';
import { testDeal } from '../../domain/spec/kit.js';
import { WorkerPoolBotMover } from './worker-pool.js';

function pool(nodes: number): WorkerPoolBotMover {
  // A generous time budget: the node budget binds, so the choice is reproducible.
  return new WorkerPoolBotMover({ botWorkers: 1, botSearchNodes: nodes, botMoveBudgetMs: 60_000 } as AppConfig);
}

describe('WorkerPoolBotMover', () => {
  const state = newMatch({ seats: 4, partnerships: true, rules: resolveRules(null), deal: testDeal(12345, 4) }).state;
  const view = viewFor(state, state.round.turn);

  it('chooses in a worker exactly what the engine chooses in process', async () => {
    const mover = pool(3000);
    try {
      for (const seed of [1, 2, 3]) {
        expect(await mover.choose(view, 'expert', seed, 'p')).toEqual(chooseBotAction(view, 'expert', seed, { nodes: 3000 }));
      }
      expect(await mover.choose(view, 'greedy', 1, 'p')).toEqual(chooseBotAction(view, 'greedy', 1));
    } finally {
      await mover.onApplicationShutdown();
    }
  });

  it('leaves the event loop free while a search runs', async () => {
    const mover = pool(400_000);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    try {
      await mover.choose(view, 'expert', 7, 'p');
    } finally {
      clearInterval(timer);
      await mover.onApplicationShutdown();
    }
    // In process, a search of this size would hold the loop and no timer could fire meanwhile.
    expect(ticks).toBeGreaterThan(0);
  });

  it("serves owners in turns: one player's backlog of searches does not hold up another's", async () => {
    const mover = pool(3000);
    const order: string[] = [];
    const search = (owner: string, i: number) => mover.choose(view, 'expert', i, owner).then(() => order.push(`${owner}${i}`));
    try {
      const backlog = [1, 2, 3, 4, 5, 6].map((i) => search('hoarder', i));
      await Promise.all([...backlog, search('other', 1)]);
    } finally {
      await mover.onApplicationShutdown();
    }
    // The hoarder's first search took the one worker, and its second was queued before the other
    // player's: that one comes next, not after the whole backlog (last, first come first served).
    expect(order.indexOf('other1')).toBe(2);
    expect(order.filter((o) => o.startsWith('hoarder'))).toEqual([1, 2, 3, 4, 5, 6].map((i) => `hoarder${i}`));
  });

  it('refuses work once closed', async () => {
    const mover = pool(100);
    await mover.onApplicationShutdown();
    await expect(mover.choose(view, 'expert', 1, 'p')).rejects.toThrow(/closed/);
  });
});
