import type { EventWithMove, LoadedMatch } from '../matches/loaded-match.js';
import { matchModel, seatOf } from '../matches/match-view.js';
import type { Match, MatchEvent } from '../matches/models/match.model.js';
import type { Player } from '../players/models/player.model.js';
import { shareablePayload } from './shared-execution.js';

export type EventPayload = { matchEvents: MatchEvent };

/**
 * What a viewer sees of a match depends on one thing: their seat in it, or none (a spectator,
 * registered or anonymous). So a batch of events is turned into payloads once per view, and every
 * subscriber of that view gets the very same objects, which graphql execution then shares too
 * (shared-execution.ts). Keyed by the record and event objects (a commit makes new ones), held
 * weakly: a batch's payloads live as long as some subscriber still holds them.
 */
export class ViewPayloads {
  private readonly matches = new WeakMap<LoadedMatch, Map<number, Match>>();
  private readonly events = new WeakMap<Match, WeakMap<EventWithMove, EventPayload>>();

  /** The payloads of `events` for `viewer`, with the match as of `record`; `build` redacts (the one place that does). */
  batch(
    record: LoadedMatch,
    viewer: Player | null,
    events: readonly EventWithMove[],
    build: (e: EventWithMove, match: Match) => MatchEvent,
  ): EventPayload[] {
    const match = this.matchFor(record, viewer);
    const forAnyone = match.ref.viewerSeat === null; // a spectators' view: every non-player shares it
    let built = this.events.get(match);
    if (!built) this.events.set(match, (built = new WeakMap()));
    return events.map((e) => {
      let payload = built.get(e);
      if (!payload) built.set(e, (payload = shareablePayload({ matchEvents: build(e, match) }, { forAnyone })));
      return payload;
    });
  }

  /** One view of the match per record and seat (-1: any non-player). */
  private matchFor(record: LoadedMatch, viewer: Player | null): Match {
    const seat = seatOf(record, viewer?.id ?? null) ?? -1;
    let views = this.matches.get(record);
    if (!views) this.matches.set(record, (views = new Map<number, Match>()));
    let match = views.get(seat);
    if (!match) views.set(seat, (match = matchModel(record, viewer)));
    return match;
  }
}
