/**
 * Who wins when a side forfeits (its player resigned or its time ran out): the best-placed other
 * side by score, ties to the lower team index. Pure: the commit that ends the match and the match
 * record's verifier both apply it.
 */
export function forfeitWinner(scores: readonly number[], loserTeam: number): number {
  return scores
    .map((score, team) => ({ score, team }))
    .filter((t) => t.team !== loserTeam)
    .sort((a, b) => b.score - a.score || a.team - b.team)[0].team;
}
