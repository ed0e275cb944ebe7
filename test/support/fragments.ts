/** Every field of Match a client can ask for, rounds and moves included. */
export const MATCH_FIELDS = `
  id status version turn mySeat canDraw dealCommitment
  rules { targetScore handSize spinner spinnerEndsCount voluntaryDraw reserve firstLeader leadRule dominoRounding blockedBonus playOut scoring }
  seats { index team handCount isBot clientSeed player { id name } }
  teams { index seats score }
  myHand { high low }
  legalMoves { tile { high low } end }
  winner { index seats score }
  currentRound { ...RoundFields }
  rounds { ...RoundFields }
`;

export const ROUND_FIELDS = `
  fragment RoundFields on Round {
    number status starter boneyardCount dealSecret
    board { openEnds { end pips } count spinner { high low } }
    moves { seq round seat type tile { high low } end points count }
    result { end awarded hands { seat tiles { high low } } }
  }
`;

export interface TileT {
  high: number;
  low: number;
}
export interface MoveT {
  seq: number;
  round: number;
  seat: number;
  type: 'PLAY' | 'DRAW' | 'PASS';
  tile: TileT | null;
  end: string | null;
  points: number;
  count: number | null;
}
export interface RoundT {
  number: number;
  status: string;
  starter: number;
  boneyardCount: number;
  board: { openEnds: { end: string; pips: number }[]; count: number; spinner: TileT | null };
  moves: MoveT[];
  result: { end: string; awarded: number[]; hands: { seat: number; tiles: TileT[] }[] } | null;
  dealSecret: string | null;
}
export interface MatchT {
  id: string;
  status: string;
  version: number;
  turn: number | null;
  mySeat: number | null;
  canDraw: boolean;
  dealCommitment: string;
  rules: Record<string, unknown> & { targetScore: number };
  seats: { index: number; team: number; handCount: number; isBot: boolean; clientSeed: string; player: { id: string; name: string } | null }[];
  teams: { index: number; seats: number[]; score: number }[];
  myHand: TileT[] | null;
  legalMoves: { tile: TileT; end: string | null }[];
  winner: { index: number; seats: number[]; score: number } | null;
  currentRound: RoundT | null;
  rounds: RoundT[];
}

export const Q_MATCH = `query($id: ID!) { match(id: $id) { ${MATCH_FIELDS} } } ${ROUND_FIELDS}`;
export const M_CREATE = `mutation($input: CreateMatchInput!) { createMatch(input: $input) { ${MATCH_FIELDS} } } ${ROUND_FIELDS}`;
export const M_JOIN = `mutation($id: ID!) { joinMatch(matchId: $id) { ${MATCH_FIELDS} } } ${ROUND_FIELDS}`;
export const M_PLAY = `mutation($input: PlayTileInput!) { playTile(input: $input) { ${MATCH_FIELDS} } } ${ROUND_FIELDS}`;
export const M_DRAW = `mutation($input: TurnInput!) { drawTile(input: $input) { ${MATCH_FIELDS} } } ${ROUND_FIELDS}`;
