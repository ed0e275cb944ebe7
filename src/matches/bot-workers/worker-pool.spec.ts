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
        expect(await mover.choose(view, 'expert', seed)).toEqual(chooseBotAction(view, 'expert', seed, { nodes: 3000 }));
      }
      expect(await mover.choose(view, 'greedy', 1)).toEqual(chooseBotAction(view, 'greedy', 1));
    } finally {
      await mover.onApplicationShutdown();
    }
  });

  it('leaves the event loop free while a search runs', async () => {
    const mover = pool(400_000);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    try {
      await mover.choose(view, 'expert', 7);
    } finally {
      clearInterval(timer);
      await mover.onApplicationShutdown();
    }
    // In process, a search of this size would hold the loop and no timer could fire meanwhile.
    expect(ticks).toBeGreaterThan(0);
  });

  it('refuses work once closed', async () => {
    const mover = pool(100);
    await mover.onApplicationShutdown();
    await expect(mover.choose(view, 'expert', 1)).rejects.toThrow(/closed/);
  });
});
