import { Injectable } from '@nestjs/common';
import type { Rules } from '../domain/index.js';
import { finishedRoundModel } from './match-view.js';
import { MatchesRepository } from './matches.repository.js';
import type { Match } from './models/match.model.js';
import type { Round } from './models/round.model.js';

/** The rounds of a match: finished ones from their stored snapshots, the live one from the view. */
@Injectable()
export class RoundsService {
  constructor(private readonly repo: MatchesRepository) {}

  async roundsOf(match: Match): Promise<Round[]> {
    if (!match.currentRound) return [];
    const finished = await this.repo.finishedRounds(match.id);
    const rounds = finished.map((r) => finishedRoundModel(r.snapshot, match.rules as Rules));
    const current = match.currentRound;
    return rounds.some((r) => r.number === current.number) ? rounds : [...rounds, current];
  }
}
