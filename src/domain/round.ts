/**
 * Starting a round: the deal (R4) and who leads (R5, R6, R23).
 *
 * Both come from the round's fair-deal stream (docs/fair-deals.md): the shuffle first, then, when
 * a leader is chosen by lot, the lot continues the same stream where the shuffle stopped.
 */
import { EMPTY_BOARD } from './board.js';
import { roundStream, shuffleDeck, type DealStream } from './fair-deal.js';
import { FRESH_SET, pipCount, tileIndex } from './tiles.js';
import type { DealSource, Rules, RoundState, Tile } from './types.js';

/** R5 ranking of a drawn tile: any double beats any non-double, then higher double / higher total;
 * [engine] equal totals: the higher larger half wins (6-3 beats 5-4; E22). */
export function lotRank(t: Tile): number {
  return t.high === t.low ? 1000 + t.high : (t.high + t.low) * 10 + t.high;
}

/**
 * The seat that wins the lot, read from `stream`: RANDOM takes uniform(seats); DRAW has each seat
 * in turn draw one tile of a fresh set in canonical order (seat s swaps set[s] with
 * set[s + uniform(28 − s)] and draws set[s]), and the best draw wins.
 */
export function lotLeader(stream: DealStream, seats: number, rules: Pick<Rules, 'firstLeader'>): number {
  if (rules.firstLeader === 'RANDOM') return stream.uniform(seats);
  const set = FRESH_SET.slice();
  const drawn: Tile[] = [];
  for (let s = 0; s < seats; s++) {
    const j = s + stream.uniform(set.length - s);
    const t = set[s];
    set[s] = set[j];
    set[j] = t;
    drawn.push(set[s]);
  }
  return bestDraw(drawn);
}

/** Index of the winning tile of one draw per seat (R5). */
export function bestDraw(drawn: readonly Tile[]): number {
  let best = 0;
  for (let s = 1; s < drawn.length; s++) if (lotRank(drawn[s]) > lotRank(drawn[best])) best = s;
  return best;
}

/**
 * R6 "American" variant: the holder of the highest double leads and must lead it. [engine] With no
 * double dealt, the heaviest hand leads with any tile (GB); ties go to the first tied seat
 * clockwise from the lot winner.
 */
export function highestDoubleLeader(hands: readonly (readonly Tile[])[], lotWinner: number): { seat: number; tile: Tile | null } {
  let seat = -1;
  let tile: Tile | null = null;
  for (let s = 0; s < hands.length; s++) {
    for (const t of hands[s]) {
      if (t.high === t.low && (tile === null || t.high > tile.high)) {
        tile = t;
        seat = s;
      }
    }
  }
  if (tile !== null) return { seat, tile };
  let heaviest = lotWinner;
  for (let k = 1; k < hands.length; k++) {
    const s = (lotWinner + k) % hands.length;
    if (pipCount(hands[s]) > pipCount(hands[heaviest])) heaviest = s;
  }
  return { seat: heaviest, tile: null };
}

/** deck[from..to) in ALL_TILES order, through a 28-bit set: cheaper than a comparator sort. */
function sortedHand(deck: readonly Tile[], from: number, to: number): Tile[] {
  let set = 0;
  for (let i = from; i < to; i++) set |= 1 << tileIndex(deck[i]);
  const hand: Tile[] = [];
  for (let i = 0; set !== 0; i++, set >>>= 1) if (set & 1) hand.push(FRESH_SET[i]);
  return hand;
}

/**
 * Deals round `number` from its fair-deal stream. `leader` is the seat that leads (the domino seat, R23), or
 * null to choose by lot (round 1 and after a block). When the lead is forced (HIGHEST_DOUBLE) the
 * forced tile is carried in `mustPlay`, the same field as a forced drawn tile (R15): the seat to
 * move must play exactly that tile.
 */
export function dealRound(number: number, deal: DealSource, seats: number, rules: Rules, leader: number | null): RoundState {
  const stream = roundStream(deal, number);
  const deck = shuffleDeck(stream);
  const h = rules.handSize;
  const hands: Tile[][] = [];
  for (let s = 0; s < seats; s++) hands.push(sortedHand(deck, s * h, (s + 1) * h));
  const boneyard = deck.slice(seats * h);
  let starter = leader ?? 0;
  let mustPlay: Tile | null = null;
  if (leader === null) {
    starter = lotLeader(stream, seats, rules);
    if (rules.leadRule === 'HIGHEST_DOUBLE') {
      const forced = highestDoubleLeader(hands, starter);
      starter = forced.seat;
      mustPlay = forced.tile;
    }
  }
  return {
    number,
    starter,
    hands,
    boneyard,
    board: EMPTY_BOARD,
    turn: starter,
    mustPlay,
    passesInRow: 0,
    status: 'IN_PROGRESS',
    result: null,
    moves: [],
  };
}
