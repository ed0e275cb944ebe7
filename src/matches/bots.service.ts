import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { botSeed, viewFor, type Action } from '../domain/index.js';
import type { DueItem, DueWorkKind } from '../due-work/due-work-kind.js';
import { DueWorkSweeper } from '../due-work/due-work.sweeper.js';
import { storedBotStrategy } from './bot-strategy.js';
import type { CommitListener, Committed } from './commit-listeners.js';
import type { LoadedMatch } from './loaded-match.js';
import { BOT_MOVER, type BotMover } from './bot-workers/bot-mover.js';
import { MatchCache } from './match-cache.js';
import { MatchesRepository } from './matches.repository.js';
import { MatchesService } from './matches.service.js';

/** A runaway guard: no match needs more bot moves than this in one go. */
const MAX_BOT_MOVES_PER_RUN = 2_000;

/**
 * Plays bot seats on the server. After any commit that leaves a bot to move, the bots of that
 * match move one after another, each move its own transaction through the same command path as
 * a human's, so a bot never acts on stale state and a human never waits for a bot.
 *
 * That wake-up is the fast path, in the process that made the commit. The safety net is due work:
 * the same commit marks the match as having a bot to move (`botDueAt`), and the sweeper of every
 * instance plays matches left due (after a crash, a restart, a wake-up lost in another process).
 * Both go through the compare-and-set: of two moves decided on one version, one applies.
 */
@Injectable()
export class BotsService implements OnModuleDestroy, DueWorkKind, CommitListener {
  readonly name = 'bot turn';
  private readonly logger = new Logger(BotsService.name);
  /** Matches whose bots are moving now, and whether another wake-up arrived meanwhile. */
  private readonly running = new Map<string, { again: boolean; done: Promise<void> }>();
  private closing = false;

  constructor(
    @Inject(MatchesService) private readonly matches: MatchesService,
    @Inject(MatchesRepository) private readonly repo: MatchesRepository,
    @Inject(DueWorkSweeper) sweeper: DueWorkSweeper,
    @Inject(BOT_MOVER) private readonly mover: BotMover,
    @Inject(MatchCache) private readonly cache: MatchCache,
  ) {
    sweeper.register(this);
  }

  /** The fast path: a commit that leaves a live match with bots wakes them in this process. */
  committed({ after }: Committed): void {
    if (after.status === 'IN_PROGRESS' && after.seats.some((s) => s.isBot)) this.wake(after.id);
  }

  wake(matchId: string): void {
    void this.moveBots(matchId);
  }

  claim(limit: number, leaseMs: number): Promise<DueItem[]> {
    return this.repo.claimDueBotTurns(limit, leaseMs);
  }

  /**
   * Due work: a turn the wake-up left. Decided on the database's row, never on a cached one: the
   * commit that handed the bot its turn may be one whose signal this instance never had, and "no
   * bot to move" from an older copy would leave the turn to the lease's end.
   */
  run(matchId: string): Promise<void> {
    this.cache.forget(matchId);
    return this.moveBots(matchId);
  }

  /** Moves this match's bots until none is to move; resolves when done (or at once when closing). */
  private moveBots(matchId: string): Promise<void> {
    if (this.closing) return Promise.resolve();
    const current = this.running.get(matchId);
    if (current) {
      current.again = true;
      return current.done;
    }
    const entry = { again: false, done: Promise.resolve() };
    entry.done = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.runBots(matchId, entry))
      .catch((e: unknown) => this.logger.error(e))
      .finally(() => this.running.delete(matchId));
    this.running.set(matchId, entry);
    return entry.done;
  }

  /** Resolves once no bot of this match is moving (tests and shutdown use it). */
  async idle(matchId?: string): Promise<void> {
    const entries = matchId ? [this.running.get(matchId)] : [...this.running.values()];
    await Promise.all(entries.map((e) => e?.done ?? Promise.resolve()));
  }

  /**
   * No new runs; the move in flight of each running match finishes (the rest stay due). The
   * worker pool closes later (onApplicationShutdown), so a search in flight still gets its answer.
   */
  async onModuleDestroy(): Promise<void> {
    this.closing = true;
    await this.idle();
  }

  private async runBots(matchId: string, entry: { again: boolean }): Promise<void> {
    for (let moves = 0; moves < MAX_BOT_MOVES_PER_RUN && !this.closing; moves++) {
      entry.again = false;
      const after = await this.matches.serverMove(matchId, (r) => this.decide(r));
      if (!after && !entry.again) return;
    }
  }

  private async decide(r: LoadedMatch): Promise<Action | null> {
    const state = r.state;
    if (!state || state.status !== 'IN_PROGRESS') return null;
    const seat = r.seats[state.round.turn];
    if (!seat?.isBot) return null;
    const strategy = storedBotStrategy(seat.botStrategy);
    // Reproducible per position, different for every move; a searching bot thinks off this thread.
    const owner = r.seats.find((s) => !s.isBot && s.playerId)?.playerId ?? r.id;
    return this.mover.choose(viewFor(state, seat.index), strategy, botSeed(state.config.deal, state.lastSeq), owner);
  }
}
