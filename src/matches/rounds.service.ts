import { Injectable } from '@nestjs/common';
import DataLoader from 'dataloader';
import type { Rules } from '../domain/index.js';
import type { FinishedRound } from './loaded-match.js';
import { finishedRoundModel } from './match-view.js';
import { MatchesRepository } from './matches.repository.js';
import type { Match } from './models/match.model.js';
import type { Round } from './models/round.model.js';
import { RoundStatus } from './models/enums.js';

/** The rounds of a match: finished ones from their stored snapshots, the live one from the view. */
@Injectable()
export class RoundsService {
  /**
   * Match.rounds of every match resolved in the same tick (a page of matches) in one statement.
   * Batching only, no cache: nothing is held past the tick, so no answer can be stale.
   */
  private readonly finished: DataLoader<string, FinishedRound[]>;
  /**
   * The rounds of one match view, read once however many times it is resolved: the events of one
   * subscription batch (a catch-up) share one view, and graphql-ws resolves each event on its own.
   * A view never changes, so this holds nothing stale, and it goes with the view.
   */
  private readonly byView = new WeakMap<Match, Promise<Round[]>>();

  constructor(repo: MatchesRepository) {
    this.finished = new DataLoader((ids) => repo.finishedRoundsOf(ids), { cache: false });
  }

  /**
   * @param spend told how many finished rounds are about to be read, before they are (it may
   *   throw to refuse them): a view's rounds are read once, so they are counted once
   */
  roundsOf(match: Match, spend: (rounds: number) => void = () => {}): Promise<Round[]> {
    let rounds = this.byView.get(match);
    if (!rounds) this.byView.set(match, (rounds = this.read(match, spend)));
    return rounds;
  }

  private async read(match: Match, spend: (rounds: number) => void): Promise<Round[]> {
    const current = match.currentRound;
    if (!current) return [];
    // Spent from the view, before the read: a refused match's rounds are neither read nor built.
    spend(current.status === RoundStatus.FINISHED ? current.number : current.number - 1);
    const finished = await this.finished.load(match.id);
    const rounds = finished.map((r) =>
      finishedRoundModel(r.snapshot, match.rules as Rules, () => match.ref.revealedSecret(r.number, true), match.ref.timedOut),
    );
    return rounds.some((r) => r.number === current.number) ? rounds : [...rounds, current];
  }
}
