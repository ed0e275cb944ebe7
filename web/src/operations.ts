/** The GraphQL documents this client sends: the public API, nothing else. */

export const MATCH_FIELDS = `
  id status version turn mySeat canDraw createdAt private inviteCode deadline
  clock { kind onTimeout forfeitAfter moveSeconds bankSeconds incrementSeconds }
  rules { targetScore handSize spinner spinnerEndsCount voluntaryDraw reserve firstLeader leadRule dominoRounding blockedBonus playOut scoring }
  seats { index team isBot handCount timeLeftSeconds timeouts player { id name } }
  teams { index score seats }
  winner { index score seats }
  ending { cause seat }
  myHand { high low }
  legalMoves { end tile { high low } }
  currentRound {
    number status starter boneyardCount
    board { count spinner { high low } openEnds { end pips } }
    moves { seq round seat type end points count timedOut tile { high low } }
    result { end awarded hands { seat tiles { high low } } }
  }
  rematch { id status mySeat seats { index player { id name } } }
`;

export const REGISTER = `mutation Register($name: String!) { registerPlayer(name: $name) { token player { id name } } }`;
export const ME = `query Me { me { id name } }`;
export const MATCH = `query Match($id: ID!) { match(id: $id) { ${MATCH_FIELDS} } }`;
export const MATCH_LIST_FIELDS = `id status createdAt turn mySeat seats { index isBot player { id name } } teams { index score seats } winner { index score seats }`;
export const TO_MOVE = `query ToMove { toMove(first: 20) { totalCount edges { node { ${MATCH_LIST_FIELDS} } } } }`;
export const MY_MATCHES = `query MyMatches($playerId: ID!) { matches(playerId: $playerId, first: 20) { totalCount edges { node { ${MATCH_LIST_FIELDS} } } } }`;
export const OPEN_MATCHES = `query OpenMatches { matches: openMatches(first: 20) { totalCount edges { node { ${MATCH_LIST_FIELDS} } } } }`;
export const NEXT_MATCH = `query NextMatch { me { nextMatch { id dealCommitment } } }`;
export const CREATE_MATCH = `mutation Create($input: CreateMatchInput!) { createMatch(input: $input) { id dealCommitment seats { index isBot clientSeed } } }`;
export const JOIN = `mutation Join($id: ID!, $seat: Int) { joinMatch(matchId: $id, seat: $seat) { ${MATCH_FIELDS} } }`;
export const JOIN_BY_INVITE = `mutation JoinByInvite($code: String!) { joinMatchByInvite(code: $code) { id } }`;
export const REMATCH = `mutation Rematch($id: ID!) { rematch(matchId: $id) { id } }`;
export const LEAVE = `mutation Leave($id: ID!) { leaveMatch(matchId: $id) { ${MATCH_FIELDS} } }`;
export const RESIGN = `mutation Resign($id: ID!) { resignMatch(matchId: $id) { ${MATCH_FIELDS} } }`;
export const PLAY = `mutation Play($input: PlayTileInput!) { playTile(input: $input) { ${MATCH_FIELDS} } }`;
export const DRAW = `mutation Draw($input: TurnInput!) { drawTile(input: $input) { ${MATCH_FIELDS} } }`;
export const MATCH_EVENTS = `subscription Events($id: ID!, $afterSeq: Int) { matchEvents(matchId: $id, afterSeq: $afterSeq) { seq type seat match { ${MATCH_FIELDS} } } }`;
export const MY_TURNS = `subscription MyTurns { myTurns { ${MATCH_FIELDS} } }`;
export const ROUND_RESULTS = `query RoundResults($id: ID!) { match(id: $id) { id rounds { number status moves { seat points type end timedOut tile { high low } } result { end awarded hands { seat tiles { high low } } } } } }`;
export const ROUNDS = `query Rounds($id: ID!) { match(id: $id) { id status rules { spinner } seats { index isBot player { name } } teams { index score seats } winner { index }
  rounds { number status starter result { end awarded hands { seat tiles { high low } } } moves { seq round seat type end points count timedOut tile { high low } } } } }`;
export const BOARD_AT = `query BoardAt($id: ID!, $round: Int!, $seq: Int!) { match(id: $id) { id rounds(number: $round) { number boardAt(seq: $seq) { count spinner { high low } openEnds { end pips } } } } }`;
