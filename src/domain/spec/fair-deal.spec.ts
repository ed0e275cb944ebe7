/**
 * The fair-deal scheme (docs/fair-deals.md): the test vectors of the docs, the hash chain,
 * rejection sampling, uniqueness of decks, views that reveal nothing hidden, and round N + 1.
 *
 * The vectors were computed by an independent implementation of the documented scheme on
 * node:crypto's SHA-256 and HMAC (not by this module), so they pin the scheme, not the code.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes, randomBytes } from '@noble/hashes/utils.js';

const randomHex = (n: number) => bytesToHex(randomBytes(n));
import {
  CHAIN_CHECKPOINT_ROUNDS,
  chainCheckpoints,
  chainSecretHex,
  chainSecretHexFrom,
  DEAL_CHAIN_LENGTH,
  dealCommitment,
  dealStream,
  deckFromSecret,
  defaultSeatSeed,
  hashTimes,
  isClientSeed,
  roundBlocks,
  roundStream,
  shuffleDeck,
} from '../fair-deal.js';
import type { DealSource } from '../types.js';
import { apply, newMatch } from '../match.js';
import { dealRound } from '../round.js';
import { resolveRules } from '../rules.js';
import { compareTiles, tileKey } from '../tiles.js';
import { viewFor } from '../view.js';
import type { MatchState, Tile, Viewer } from '../types.js';
import { config, makeRngFor, play, position, randomPolicy, t, testDeal } from './kit.js';

const SECRET = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';
const MATCH_ID = '3f0c1a52-7d4e-4b8a-9c61-2e5f8d7a9b10';
const deck = (s: string) => s.split(' ').map(t);

describe('test vectors (docs/fair-deals.md)', () => {
  it('vector 1: round 1, seeds alice|bob', () => {
    expect(deckFromSecret(SECRET, MATCH_ID, 1, ['alice', 'bob'])).toEqual(
      deck('6-5 6-0 5-0 4-0 5-4 4-3 6-1 6-6 2-2 5-1 6-2 5-5 4-2 5-3 3-2 2-1 6-4 4-4 6-3 3-1 4-1 5-2 1-1 3-0 0-0 3-3 1-0 2-0'),
    );
  });

  it('vector 2: round 7, four seeds (one with spaces and a tilde)', () => {
    expect(deckFromSecret(SECRET, MATCH_ID, 7, ['alice', 'bob', '0123456789abcdef', 'x y~z'])).toEqual(
      deck('3-1 2-1 4-3 5-0 5-4 4-4 3-3 4-2 2-2 5-2 6-1 1-0 6-3 6-6 0-0 6-4 6-0 3-0 3-2 4-1 5-5 6-2 5-1 4-0 2-0 5-3 6-5 1-1'),
    );
  });

  it('vector 1 dealt: hands are consecutive slices, the boneyard the rest in order, the lot continues the stream', () => {
    const deal: DealSource = { matchId: MATCH_ID, clientSeeds: ['alice', 'bob'], anchor: { round: 1, secret: SECRET } };
    const d = deck('6-5 6-0 5-0 4-0 5-4 4-3 6-1 6-6 2-2 5-1 6-2 5-5 4-2 5-3 3-2 2-1 6-4 4-4 6-3 3-1 4-1 5-2 1-1 3-0 0-0 3-3 1-0 2-0');
    const round = dealRound(1, deal, 2, resolveRules({}), null);
    expect(round.hands).toEqual([d.slice(0, 7).sort(compareTiles), d.slice(7, 14).sort(compareTiles)]);
    expect(round.boneyard).toEqual(d.slice(14));
    // The lot (DRAW) after the shuffle: seat 0 draws 4-0, seat 1 draws 6-5, so seat 1 leads.
    expect(round.starter).toBe(1);
  });

  it('the chain from S_N = 00 01 … 1f: S_1, S_2 and the commitment', () => {
    const anchor = { round: DEAL_CHAIN_LENGTH, secret: SECRET };
    expect(chainSecretHex(anchor, DEAL_CHAIN_LENGTH)).toBe(SECRET);
    expect(chainSecretHex(anchor, 2)).toBe('2d5d58a6d7ab7eec12448c0c38f03c4d90f999bce0e0b5d23292fd5594d58380');
    expect(chainSecretHex(anchor, 1)).toBe('b7b81dbeec01f0eee02e43da4988dafb5ecc56a90080555aff89bcbc92ba59c8');
    expect(dealCommitment(anchor)).toBe('45cd0d40a72c806c4b78bbeca7a52d9fa6f25751fea57cf1564e7b70b9519db4');
  });

  it("a seat's default seed: the first 16 hex digits of SHA-256 of label|commitment|seat", () => {
    const commitment = '45cd0d40a72c806c4b78bbeca7a52d9fa6f25751fea57cf1564e7b70b9519db4';
    expect([0, 1, 2, 3].map((seat) => defaultSeatSeed(commitment, seat))).toEqual([
      '02991450eb61ca55',
      '48dbbb8373b8376f',
      '5080f71c26e8204c',
      '9e9c4f907621f970',
    ]);
    expect(isClientSeed(defaultSeatSeed(commitment, 0))).toBe(true);
  });
});

describe('the hash chain', () => {
  it('S_k = SHA-256(S_(k+1)), and S_r hashed r times is the commitment, for every r', () => {
    const anchor = { round: DEAL_CHAIN_LENGTH, secret: randomHex(32) };
    const commitment = dealCommitment(anchor);
    for (let r = 1; r < DEAL_CHAIN_LENGTH; r++) {
      expect(bytesToHex(sha256(hexToBytes(chainSecretHex(anchor, r + 1))))).toBe(chainSecretHex(anchor, r));
    }
    for (const r of [1, 2, 17, 500, DEAL_CHAIN_LENGTH]) expect(hashTimes(chainSecretHex(anchor, r), r)).toBe(commitment);
  });

  it('a lower anchor of the same chain (what a verifier holds) gives the same secrets and decks', () => {
    const server = testDeal(5, 3);
    const verifier: DealSource = { ...server, anchor: { round: 4, secret: chainSecretHex(server.anchor, 4) } };
    for (let r = 1; r <= 4; r++) expect(shuffleDeck(roundStream(verifier, r))).toEqual(shuffleDeck(roundStream(server, r)));
    expect(() => roundStream(verifier, 5)).toThrow(RangeError);
  });

  it('the checkpoints are S_16 … S_512, and every S_r read through them is the walk from S_N', () => {
    const head = { round: DEAL_CHAIN_LENGTH, secret: SECRET };
    const checkpoints = chainCheckpoints(head);
    expect(CHAIN_CHECKPOINT_ROUNDS.map((k, i) => bytesToHex(checkpoints.subarray(32 * i, 32 * i + 32)))).toEqual(
      CHAIN_CHECKPOINT_ROUNDS.map((k) => hashTimes(SECRET, DEAL_CHAIN_LENGTH - k)),
    );
    for (let r = 1; r <= DEAL_CHAIN_LENGTH; r++) expect(chainSecretHexFrom(head, checkpoints, r)).toBe(chainSecretHex(head, r));
  });

  it('reads S_r from the checkpoint nearest above r, not from the head', () => {
    const head = { round: DEAL_CHAIN_LENGTH, secret: randomHex(32) };
    // Checkpoints of another chain: what comes out says which of them was hashed, and how often.
    const other = { round: DEAL_CHAIN_LENGTH, secret: randomHex(32) };
    const planted = chainCheckpoints(other);
    expect(chainSecretHexFrom(head, planted, 1)).toBe(chainSecretHex(other, 1));
    expect(chainSecretHexFrom(head, planted, 16)).toBe(chainSecretHex(other, 16));
    expect(chainSecretHexFrom(head, planted, 17)).toBe(chainSecretHex(other, 17));
    expect(chainSecretHexFrom(head, planted, 512)).toBe(chainSecretHex(other, 512));
    // Above the last checkpoint, or with none stored (or not of their shape), the head is walked.
    expect(chainSecretHexFrom(head, planted, 513)).toBe(chainSecretHex(head, 513));
    expect(chainSecretHexFrom(head, null, 3)).toBe(chainSecretHex(head, 3));
    expect(chainSecretHexFrom(head, planted.subarray(32), 3)).toBe(chainSecretHex(head, 3));
  });
});

describe('uniform(n) by rejection sampling', () => {
  /** Blocks of 8 big-endian words from a list, then zeros. */
  const blocksOf =
    (words: number[]) =>
    (counter: number): Uint8Array => {
      const b = new Uint8Array(32);
      const view = new DataView(b.buffer);
      for (let i = 0; i < 8; i++) view.setUint32(4 * i, words[8 * counter + i] ?? 0);
      return b;
    };

  it('rejects x ≥ 2^32 − (2^32 mod n) and takes the next word, across block boundaries', () => {
    // n = 3: the limit is 2^32 − 1, so only 0xffffffff is rejected.
    const s = dealStream(blocksOf([0xffffffff, 0xffffffff, 5, 7]));
    expect(s.uniform(3)).toBe(2); // 5 mod 3, after two rejects
    expect(s.next32()).toBe(7);
    // n = 28: 2^32 mod 28 = 4, so 4294967292 … 4294967295 are rejected and 4294967291 is the largest taken.
    const words = [...Array<number>(8).fill(4294967292), 4294967295, 4294967291];
    const s28 = dealStream(blocksOf(words));
    expect(s28.uniform(28)).toBe(4294967291 % 28);
  });

  it('takes every word below the limit at once (powers of two never reject)', () => {
    const s = dealStream(blocksOf([0xffffffff, 9]));
    expect(s.uniform(2)).toBe(1);
    expect(s.uniform(10)).toBe(9);
  });

  it('reads the HMAC blocks of the round in counter order', () => {
    const blocks = roundBlocks(hexToBytes(SECRET), MATCH_ID, 1, ['alice', 'bob']);
    const s = dealStream(blocks);
    const first = blocks(0);
    expect(s.next32()).toBe(new DataView(first.buffer, first.byteOffset).getUint32(0));
    for (let i = 1; i < 8; i++) s.next32();
    const second = blocks(1);
    expect(s.next32()).toBe(new DataView(second.buffer, second.byteOffset).getUint32(0));
  });
});

describe('client seeds', () => {
  it.each([['a'], ['x'.repeat(64)], [' ~!'], ['0123456789abcdef']])('accepts %j', (s) => expect(isClientSeed(s)).toBe(true));
  it.each([[''], ['x'.repeat(65)], ['a|b'], ['é'], ['tab\there'], ['new\nline']])('refuses %j', (s) => expect(isClientSeed(s)).toBe(false));
  it('are part of the deal: changing one seed deals another deck', () => {
    const a = testDeal(1, 2);
    const b = { ...a, clientSeeds: ['seat-0', 'seat-1!'] };
    expect(shuffleDeck(roundStream(a, 1))).not.toEqual(shuffleDeck(roundStream(b, 1)));
  });
  it('an invalid deal source is refused at setup', () => {
    const cfg = config(2);
    expect(() => newMatch({ ...cfg, deal: { ...cfg.deal, clientSeeds: ['a|b', 'c'] } })).toThrow(/client seed of seat 0/);
    expect(() => newMatch({ ...cfg, deal: { ...cfg.deal, clientSeeds: ['a'] } })).toThrow(/2 seeds/);
    expect(() => newMatch({ ...cfg, deal: { ...cfg.deal, anchor: { round: 1000, secret: 'ABC' } } })).toThrow(/hex/);
  });
});

describe('decks', () => {
  it('no two rounds share a deck across 10,000 matches', () => {
    // Each match: its own random secret, match id and seeds; rounds 1–3 are dealt from S_1..S_3 of
    // a chain anchored at S_3 (the deck depends on S_r alone, so a shorter walk changes nothing).
    const seen = new Set<string>();
    for (let m = 0; m < 10_000; m++) {
      const deal: DealSource = {
        matchId: `m-${m}`,
        clientSeeds: [randomHex(8), randomHex(8)],
        anchor: { round: 3, secret: randomHex(32) },
      };
      for (let r = 1; r <= 3; r++) seen.add(shuffleDeck(roundStream(deal, r)).map(tileKey).join(' '));
    }
    expect(seen.size).toBe(30_000);
  });

  it('every deck is a permutation of the 28 tiles', () => {
    for (let m = 0; m < 200; m++) {
      const d = deckFromSecret(randomHex(32), `m-${m}`, 1 + (m % 9), ['a', 'b', 'c']);
      expect(new Set(d.map(tileKey)).size).toBe(28);
    }
  });
});

describe('views', () => {
  /** The same position with the tiles the viewer cannot see (other hands, the boneyard) dealt anew. */
  function reshuffleHidden(state: MatchState, viewer: Viewer, rng: () => number): MatchState {
    const r = state.round;
    const hidden: Tile[] = [...r.boneyard];
    r.hands.forEach((h, s) => s !== viewer && hidden.push(...h));
    for (let i = hidden.length - 1; i > 0; i--) {
      const j = Math.floor(rng() * (i + 1));
      [hidden[i], hidden[j]] = [hidden[j], hidden[i]];
    }
    let at = 0;
    const hands = r.hands.map((h, s) => (s === viewer ? h : hidden.slice(at, (at += h.length)).sort(compareTiles)));
    return { ...state, round: { ...r, hands, boneyard: hidden.slice(at) } };
  }

  it('hands are never derivable from a view: dealing the hidden tiles anew leaves every view unchanged, and no secret appears', () => {
    for (let n = 0; n < 24; n++) {
      const seats = 2 + (n % 3);
      const cfg = config(seats, false, { targetScore: 100 }, 1000 + n);
      const rng = makeRngFor(n);
      const policy = randomPolicy(n);
      let state = newMatch(cfg).state;
      const secrets = [cfg.deal.anchor.secret, chainSecretHex(cfg.deal.anchor, 1), chainSecretHex(cfg.deal.anchor, 2)];
      for (let step = 0; step < 50 && state.status === 'IN_PROGRESS'; step++) {
        if (state.round.status === 'IN_PROGRESS') {
          for (const viewer of [...Array.from({ length: seats }, (_, i) => i), 'spectator' as const]) {
            const json = JSON.stringify(viewFor(state, viewer));
            expect(JSON.stringify(viewFor(reshuffleHidden(state, viewer, rng), viewer))).toBe(json);
            for (const s of secrets) expect(json).not.toContain(s);
            expect(json).not.toMatch(/[0-9a-f]{64}/i);
          }
        }
        const res = apply(state, policy(state));
        if (!res.ok) throw new Error(res.violation.code);
        state = res.state;
      }
    }
  });
});

describe(`round ${DEAL_CHAIN_LENGTH} is the last`, () => {
  const atLastRound = (s: MatchState): MatchState => ({ ...s, round: { ...s.round, number: DEAL_CHAIN_LENGTH } });

  it('a round N that ends below the target ends the match: the highest score wins', () => {
    const s = atLastRound(position({ hands: [['6-4'], ['1-1', '0-0']], scores: [0, 100] }));
    const r = play(s, '6-4');
    expect(r.state).toMatchObject({ status: 'FINISHED', winner: 1 });
    expect(r.state.round.number).toBe(DEAL_CHAIN_LENGTH);
    expect(r.events.map((e) => e.type)).toEqual(['TILE_PLAYED', 'ROUND_ENDED', 'MATCH_FINISHED']);
  });

  it('a tie for the highest score goes to the lowest team index', () => {
    const s = atLastRound(position({ hands: [['6-4'], ['1-1', '0-0']], scores: [50, 60] }));
    const r = play(s, '6-4'); // 10 points: 60 each, the bonus for 2 pips rounds to 0
    expect(r.state.scores).toEqual([60, 60]);
    expect(r.state).toMatchObject({ status: 'FINISHED', winner: 0 });
  });

  it('round N − 1 still deals round N', () => {
    const s = position({ hands: [['6-4'], ['1-1', '0-0']], scores: [0, 100] });
    const r = play({ ...s, round: { ...s.round, number: DEAL_CHAIN_LENGTH - 1 } }, '6-4');
    expect(r.state).toMatchObject({ status: 'IN_PROGRESS', round: { number: DEAL_CHAIN_LENGTH } });
  });
});
