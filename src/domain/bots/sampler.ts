/**
 * Determinization: one full deal of the hidden tiles consistent with a seat's knowledge (each
 * hidden slot gets a tile its mask allows; what is left forms the boneyard, in random order).
 * Most constrained slots are filled first, with backtracking, so a consistent deal is found
 * whenever one exists; the real hidden tiles are never an input.
 */
import type { Tile } from '../types.js';
import { ALL_TILES } from '../tiles.js';
import type { Knowledge } from './inference.js';
import { lowestIndex, popcount } from './masks.js';
import type { BotRng } from './rng.js';

export interface World {
  /** Per seat, the tiles it holds as a mask (the viewer's own hand included). */
  readonly hands: number[];
  /** The boneyard, next draw first. */
  readonly boneyard: Tile[];
}

/** A sampling search that backtracks this often gives up on the masks (never seen in play). */
const MAX_STEPS = 20_000;

/** The k-th (0-based) set bit of m. */
function nthBit(m: number, k: number): number {
  for (let i = 0; i < k; i++) m &= m - 1;
  return lowestIndex(m);
}

/**
 * A sampler for one position: the slots are ordered once (most constrained first), then each call
 * deals one world. The search calls it hundreds of times per move.
 */
export function worldSampler(k: Knowledge, ownHand: number): (rng: BotRng) => World {
  const slots: { seat: number; mask: number; free: number }[] = [];
  k.slots.forEach((masks, seat) => masks.forEach((mask) => slots.push({ seat, mask, free: popcount(k.unseen & ~mask) })));
  slots.sort((a, b) => a.free - b.free);
  return (rng) => deal(k, ownHand, slots, rng);
}

export function sampleWorld(k: Knowledge, ownHand: number, rng: BotRng): World {
  return worldSampler(k, ownHand)(rng);
}

function deal(k: Knowledge, ownHand: number, slots: readonly { seat: number; mask: number }[], rng: BotRng): World {
  const chosen = new Array<number>(slots.length).fill(-1);
  let steps = 0;
  const fill = (i: number, left: number, loose: boolean): boolean => {
    if (i === slots.length) return true;
    if (++steps > MAX_STEPS && !loose) return false;
    const allowed = loose ? left : left & ~slots[i].mask;
    const n = popcount(allowed);
    if (n === 0) return false;
    const start = rng.below(n);
    for (let j = 0; j < n; j++) {
      const bit = nthBit(allowed, (start + j) % n);
      chosen[i] = bit;
      if (fill(i + 1, left & ~(1 << bit), loose)) return true;
      if (steps > MAX_STEPS && !loose) return false;
    }
    return false;
  };
  if (!fill(0, k.unseen, false)) fill(0, k.unseen, true);
  const hands = k.slots.map(() => 0);
  hands[k.seat] = ownHand;
  let left = k.unseen;
  for (let i = 0; i < slots.length; i++) {
    if (chosen[i] < 0) continue;
    hands[slots[i].seat] |= 1 << chosen[i];
    left &= ~(1 << chosen[i]);
  }
  const rest: Tile[] = [];
  for (let i = 0; left !== 0; i++, left >>>= 1) if (left & 1) rest.push(ALL_TILES[i]);
  for (let i = rest.length - 1; i > 0; i--) {
    const j = rng.below(i + 1);
    const t = rest[i];
    rest[i] = rest[j];
    rest[j] = t;
  }
  return { hands, boneyard: rest.slice(0, k.boneyardCount) };
}
