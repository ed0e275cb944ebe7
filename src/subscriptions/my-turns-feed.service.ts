import { Injectable, Logger } from '@nestjs/common';
import type { LoadedMatch } from '../matches/loaded-match.js';
import { turnOf } from '../matches/decide-turn.js';
import { matchModel, seatOf } from '../matches/match-view.js';
import type { Match } from '../matches/models/match.model.js';
import type { Player } from '../players/models/player.model.js';
import { FeedReads } from './feed-reads.js';
import { FeedRegistry, type FeedListener } from './feed-registry.js';
import { PushIterator } from './push-iterator.js';
import { TurnsRepository } from './turns.repository.js';

/** Ended matches a myTurns feed remembers the pushed version of (see `push`). */
const RECENTLY_ENDED = 64;

const isOver = (r: LoadedMatch) => r.status === 'FINISHED' || r.status === 'ABANDONED';

/**
 * myTurns: the caller's matches where it is their turn. First every one where it is their turn
 * now (a turn that began before the subscription is not lost), then each time a turn begins, and
 * once more when a match of theirs ends (status FINISHED or ABANDONED), so a client living on this
 * feed alone learns that a match is over whoever ended it (a resignation, a bot's winning play),
 * and again when its rematch is offered (its matchEvents feed has completed by then).
 * Work is done in signal order per subscription, and a match is never pushed twice at the same
 * version, so the catch-up and a signal racing it give one push; nor twice in one turn of the
 * caller's, so their own draw, which keeps the turn, is not pushed when a re-check or a resync
 * reads the match after it (its signal names no one whose turn began).
 */
@Injectable()
export class MyTurnsFeed {
  private readonly logger = new Logger(MyTurnsFeed.name);

  constructor(
    private readonly registry: FeedRegistry,
    private readonly reads: FeedReads,
    private readonly turns: TurnsRepository,
  ) {}

  subscribe(player: Player, fellBehind: () => void = () => {}): AsyncIterableIterator<{ myTurns: Match }> {
    let stop = () => {};
    const out = new PushIterator<{ myTurns: Match }>(() => stop(), this.registry.maxQueued, fellBehind);
    // Match id → version last pushed (and the caller's turn it was in, turnKey), while the match
    // is live; the ended ones of late go on in a short list, so an end and its rematch offer read
    // late are never pushed twice at one version, while a feed that lives for days holds no entry
    // for every match it ever saw.
    const pushedAt = new Map<string, { version: number; turn: string | null }>();
    const endedAt = new Map<string, number>();
    const push = (record: LoadedMatch): void => {
      if ((pushedAt.get(record.id)?.version ?? endedAt.get(record.id) ?? -1) >= record.version) return;
      if (isOver(record)) {
        pushedAt.delete(record.id);
        endedAt.delete(record.id); // re-insert: Map order is recency order
        endedAt.set(record.id, record.version);
        if (endedAt.size > RECENTLY_ENDED) endedAt.delete(endedAt.keys().next().value!);
      } else {
        const turn = turnOf(record, player.id);
        const sameTurn = pushedAt.get(record.id)?.turn === turn;
        pushedAt.set(record.id, { version: record.version, turn });
        if (sameTurn) return;
      }
      out.push({ myTurns: matchModel(record, player) });
    };
    const isMyTurn = (r: LoadedMatch) => r.status === 'IN_PROGRESS' && r.state !== null && seatOf(r, player.id) === r.state.round.turn;
    // Every match where it is the caller's turn, at the reader's pace: a player may have thousands,
    // so a page is read only once the reader took the previous one (the queue never overflows),
    // and nothing more is read once the subscription is gone.
    const page = this.registry.page;
    const catchUp = async (): Promise<void> => {
      const turns = await this.turns.turnsOf(player.id);
      this.registry.turnsKnown(player.id, turns);
      for (let i = 0; i < turns.length && !out.ended; i += page) {
        for (const record of await this.reads.freshest(turns.slice(i, i + page))) if (isMyTurn(record)) push(record);
        await out.drained();
      }
    };
    let queue: Promise<void> = catchUp();
    const listener: FeedListener = (s) => {
      // Signals may have been missed (the transport reconnected): every turn that is the caller's
      // now is pushed again, unless it was already pushed at that version.
      if (s === 'resync') {
        queue = queue.then(catchUp).catch((e: unknown) => this.logger.error(e));
        return;
      }
      queue = queue
        .then(async () => {
          const record = await this.reads.latest(s.matchId, s.version);
          if (!record) return;
          const ended = s.endedFor?.includes(player.id) && isOver(record);
          // A turn only if it is still the caller's when read (a fast opponent may be ahead).
          if (ended || (s.turnPlayerId === player.id && isMyTurn(record))) push(record);
        })
        .catch((e: unknown) => this.logger.error(e));
    };
    queue = queue.catch((e: unknown) => {
      this.logger.error(e);
      out.fail(e);
    });
    stop = this.registry.watchPlayer(player.id, listener);
    return out;
  }
}
