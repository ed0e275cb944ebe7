/** GraphQL operations the benchmarks share. */
export const REGISTER = 'mutation($n: String!) { registerPlayer(name: $n) { token } }';
export const PLAY = 'mutation($i: PlayTileInput!) { playTile(input: $i) { status turn } }';
export const DRAW = 'mutation($i: TurnInput!) { drawTile(input: $i) { status turn } }';
