import { Args, Int, Parent, ResolveField, Resolver } from '@nestjs/graphql';
import { ApiError } from '../common/api-error.js';
import { Board, Round } from '../matches/models/round.model.js';
import type { End } from '../matches/models/enums.js';
import { boardAt } from './board-at.js';

/**
 * Round.boardAt: replay from the round's own move list, which is already what this viewer may
 * see (the live round hides only others' draws, which never change the layout), under the
 * match's stored layout rules.
 */
@Resolver(() => Round)
export class BoardAtResolver {
  @ResolveField(() => Board, {
    nullable: true,
    description:
      "The layout right after the move with this match-wide seq, for replay. A seq that is not one of this round's moves is refused with BAD_USER_INPUT (the field is then null, with the error in errors); never null otherwise.",
  })
  boardAt(@Parent() round: Round, @Args('seq', { type: () => Int, description: "Move.seq of one of this round's moves." }) seq: number): Board {
    const board = boardAt(round.moves, seq, round.layout);
    if (!board) {
      const seqs = round.moves.map((m) => m.seq);
      const range = seqs.length ? `${seqs[0]}..${seqs[seqs.length - 1]}` : 'none yet';
      throw new ApiError('BAD_USER_INPUT', `seq ${seq} is not a move of round ${round.number} (its moves: ${range})`);
    }
    return { ...board, openEnds: board.openEnds.map((e) => ({ end: e.end as End, pips: e.pips })) };
  }
}
