import { registerEnumType } from '@nestjs/graphql';

/* The contract's enums. Values equal the engine's string unions, so no mapping is needed. */

export enum SpinnerMode {
  FIRST_DOUBLE = 'FIRST_DOUBLE',
  NONE = 'NONE',
}
export enum FirstLeader {
  DRAW = 'DRAW',
  RANDOM = 'RANDOM',
}
export enum LeadRule {
  ANY = 'ANY',
  HIGHEST_DOUBLE = 'HIGHEST_DOUBLE',
}
export enum Rounding {
  AGGREGATE = 'AGGREGATE',
  PER_HAND = 'PER_HAND',
}
export enum BlockedBonus {
  OPPONENTS_TOTAL = 'OPPONENTS_TOTAL',
  DIFFERENCE = 'DIFFERENCE',
}
export enum ScoringSystem {
  FIVES = 'FIVES',
  FIVES_AND_THREES = 'FIVES_AND_THREES',
  THREES_AND_FIVES = 'THREES_AND_FIVES',
}
export enum End {
  LEFT = 'LEFT',
  RIGHT = 'RIGHT',
  UP = 'UP',
  DOWN = 'DOWN',
}
export enum MatchStatus {
  WAITING = 'WAITING',
  IN_PROGRESS = 'IN_PROGRESS',
  FINISHED = 'FINISHED',
  ABANDONED = 'ABANDONED',
}
export enum RoundStatus {
  IN_PROGRESS = 'IN_PROGRESS',
  FINISHED = 'FINISHED',
  UNFINISHED = 'UNFINISHED',
}
export enum RoundEnd {
  DOMINO = 'DOMINO',
  BLOCKED = 'BLOCKED',
  MATCH_WON = 'MATCH_WON',
  RESIGNED = 'RESIGNED',
}
export enum MoveType {
  PLAY = 'PLAY',
  DRAW = 'DRAW',
  PASS = 'PASS',
}
export enum MatchEventType {
  PLAYER_JOINED = 'PLAYER_JOINED',
  PLAYER_LEFT = 'PLAYER_LEFT',
  CLIENT_SEED_SET = 'CLIENT_SEED_SET',
  MATCH_STARTED = 'MATCH_STARTED',
  ROUND_STARTED = 'ROUND_STARTED',
  TILE_PLAYED = 'TILE_PLAYED',
  TILE_DRAWN = 'TILE_DRAWN',
  TURN_PASSED = 'TURN_PASSED',
  ROUND_ENDED = 'ROUND_ENDED',
  MATCH_FINISHED = 'MATCH_FINISHED',
  RESIGNED = 'RESIGNED',
  MATCH_EXPIRED = 'MATCH_EXPIRED',
  REMATCH_OFFERED = 'REMATCH_OFFERED',
  TIMED_OUT = 'TIMED_OUT',
  DEADLINE_SOON = 'DEADLINE_SOON',
}
export enum BotStrategy {
  RANDOM = 'RANDOM',
  GREEDY = 'GREEDY',
  DEFENSIVE = 'DEFENSIVE',
  EXPERT = 'EXPERT',
}

registerEnumType(SpinnerMode, {
  name: 'SpinnerMode',
  description: 'Which tile is the spinner (R10).',
  valuesMap: {
    FIRST_DOUBLE: { description: 'The first double played in a round (default).' },
    NONE: { description: 'No spinner: a line with two ends.' },
  },
});
registerEnumType(FirstLeader, {
  name: 'FirstLeader',
  description: 'How the leader is chosen when nobody earned the lead (R5).',
  valuesMap: {
    DRAW: { description: 'Each seat draws one tile: highest double, else highest total (default).' },
    RANDOM: { description: 'A uniformly random seat.' },
  },
});
registerEnumType(LeadRule, {
  name: 'LeadRule',
  description: 'What the leader may lead (R6).',
  valuesMap: {
    ANY: { description: 'Any tile (default).' },
    HIGHEST_DOUBLE: {
      description:
        'When the lead is drawn for, the holder of the highest double leads it; with no double dealt, the heaviest hand leads any tile (a tie: the first clockwise from the lot winner).',
    },
  },
});
registerEnumType(Rounding, {
  name: 'Rounding',
  description: 'How the domino bonus is rounded to 5 (R18).',
  valuesMap: {
    AGGREGATE: { description: "Opponents' pips summed, then rounded (default)." },
    PER_HAND: { description: "Each opponent's hand rounded separately." },
  },
});
registerEnumType(BlockedBonus, {
  name: 'BlockedBonus',
  description: 'What the lowest side scores when a round is blocked (R19).',
  valuesMap: {
    OPPONENTS_TOTAL: { description: "The other sides' pips, rounded (default)." },
    DIFFERENCE: {
      description:
        "The sum, over every other side, of that side's pips minus the lowest side's own, rounded to 5 (with two sides, simply the difference).",
    },
  },
});
registerEnumType(ScoringSystem, {
  name: 'ScoringSystem',
  description: 'How the open-end count C scores (R13, R25).',
  valuesMap: {
    FIVES: { description: 'C when 5 divides C (default).' },
    FIVES_AND_THREES: {
      description:
        'C/5 when 5 divides C plus C/3 when 3 divides C. Scoring only: for the traditional game without drawing (R25), also set reserve to the whole boneyard and handSize to 7 (2 players) or 5.',
    },
    THREES_AND_FIVES: { description: 'C when 3 or 5 divides C; 2C when both do.' },
  },
});
registerEnumType(End, {
  name: 'End',
  description: "An open end of the layout. UP and DOWN are the spinner's arms; a non-double lead's high half faces LEFT.",
  valuesMap: {
    LEFT: { description: "The arm grown from the lead's high half (a double lead's one side)." },
    RIGHT: { description: "The arm grown from the lead's low half (a double lead's other side)." },
    UP: { description: "One of the spinner's two ends: open only once both its sides carry a tile (R11); never without a spinner." },
    DOWN: { description: "The spinner's other end; opens with UP." },
  },
});
registerEnumType(MatchStatus, {
  name: 'MatchStatus',
  description: 'Where a match stands: WAITING, then IN_PROGRESS once every seat is taken, then FINISHED; or ABANDONED before it started.',
  valuesMap: {
    WAITING: { description: 'Seats are still free.' },
    IN_PROGRESS: { description: 'Being played.' },
    FINISHED: { description: 'A side won: it reached the target, or another side resigned or forfeited on time.' },
    ABANDONED: { description: 'Every player left before the start, or nobody joined in time (MATCH_EXPIRED).' },
  },
});
registerEnumType(RoundStatus, {
  name: 'RoundStatus',
  description: 'Where a round stands.',
  valuesMap: {
    IN_PROGRESS: { description: 'Being played.' },
    FINISHED: { description: 'Ended by a domino, a block, or a play that won the match (see result).' },
    UNFINISHED: {
      description:
        'Cut short by a resignation or a forfeit on time, which ended the match: no result scored; its hands are shown in result (end RESIGNED).',
    },
  },
});
registerEnumType(RoundEnd, {
  name: 'RoundEnd',
  description: 'How a round ended.',
  valuesMap: {
    DOMINO: { description: 'A player played their last tile.' },
    BLOCKED: { description: 'Nobody could play or draw.' },
    MATCH_WON: { description: 'A play reached the target, ahead of every other side; no end-of-round bonus follows.' },
    RESIGNED: { description: 'A resignation or a forfeit on time ended the match during this round (status UNFINISHED); nothing is awarded.' },
  },
});
registerEnumType(MatchEventType, {
  name: 'MatchEventType',
  description: 'What a MatchEvent records.',
  valuesMap: {
    PLAYER_JOINED: { description: 'A player took a seat (the creator too).' },
    PLAYER_LEFT: { description: 'A player left a WAITING match.' },
    CLIENT_SEED_SET: { description: 'A seated player set their client seed (setClientSeed) while the match was WAITING.' },
    MATCH_STARTED: { description: 'Every seat was taken; round 1 is dealt.' },
    ROUND_STARTED: { description: 'A round was dealt.' },
    TILE_PLAYED: { description: 'A PLAY move (see move).' },
    TILE_DRAWN: { description: "A DRAW move (another seat's draw shows no tile)." },
    TURN_PASSED: { description: 'A PASS move, recorded by the server.' },
    ROUND_ENDED: { description: 'A round ended (domino, block, or a play that won the match).' },
    MATCH_FINISHED: { description: 'The match is over: FINISHED, with a winner. The last event of its play (REMATCH_OFFERED may follow).' },
    RESIGNED: { description: 'A player resigned; MATCH_FINISHED follows.' },
    MATCH_EXPIRED: { description: 'Nobody joined the WAITING match within OPEN_MATCH_TTL_HOURS: it is ABANDONED. Its last event.' },
    REMATCH_OFFERED: {
      description:
        'A player of this FINISHED match created its rematch (Match.rematch says where; MatchEvent.seat is theirs); the others may join it with rematch(matchId).',
    },
    TIMED_OUT: {
      description:
        "The seat (MatchEvent.seat) ran out of time: the server's moves for it follow (timedOut), or MATCH_FINISHED when its side forfeits.",
    },
    DEADLINE_SOON: {
      description:
        "80 % of the turn's time of the seat to move (MatchEvent.seat) is gone; sent at most once per turn (not when the server first reaches the turn after its deadline: TIMED_OUT follows at once).",
    },
  },
});
registerEnumType(MoveType, {
  name: 'MoveType',
  description: 'PASS is recorded by the server when the seat to move can neither play nor draw.',
  valuesMap: {
    PLAY: { description: 'A tile from the hand onto the layout; scores when the count C does (R13).' },
    DRAW: { description: "A tile taken from the boneyard (R15); another seat's draw shows no tile while the round is live." },
    PASS: { description: 'The seat could neither play nor draw (R16): no tile, no points. Made by the server.' },
  },
});
registerEnumType(BotStrategy, {
  name: 'BotStrategy',
  description: 'How server-side bots choose their moves; each sees only its own seat’s view.',
  valuesMap: {
    RANDOM: { description: 'Any legal move.' },
    GREEDY: { description: 'Most points now; else sheds its heaviest tile (the default).' },
    DEFENSIVE: { description: 'Greedy with a one-move lookahead: denies the next seat its scoring answers and keeps counting tiles back.' },
    EXPERT: {
      description:
        'Searches: deals the hidden tiles many times consistently with what passes and draws proved, and plays each candidate out to the end of the round; the strongest, at some milliseconds per move.',
    },
  },
});
