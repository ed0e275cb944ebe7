import { Injectable } from '@nestjs/common';
import { canonicalId } from '../common/ids.js';
import { decodeCursor, pageSize } from '../common/pagination.js';
import { dateInRange } from '../common/validate.js';
import { matchPage } from '../matches/match-page.js';
import type { MatchStatusValue } from '../matches/loaded-match.js';
import type { Player } from '../players/models/player.model.js';
import { GlobalCounts } from '../database/global-counts.js';
import { HistoryRepository } from './history.repository.js';
import type { MatchConnection } from '../matches/models/match-connection.model.js';

@Injectable()
export class HistoryService {
  constructor(
    private readonly repo: HistoryRepository,
    private readonly globalCounts: GlobalCounts,
  ) {}

  /**
   * @param count whether to count every match that passes the filters (totalCount): it reads them all
   * @param caller the client's address: whose turn it is when counts over every match wait (GlobalCounts)
   */
  async matches(
    viewer: Player | null,
    args: {
      playerId?: string | null;
      status?: MatchStatusValue | null;
      from?: Date | null;
      to?: Date | null;
      first?: number | null;
      after?: string | null;
    },
    count: boolean,
    caller: string,
  ): Promise<MatchConnection> {
    if (args.playerId) args = { ...args, playerId: canonicalId(args.playerId, 'player') };
    if (args.from) dateInRange(args.from, 'from');
    if (args.to) dateInRange(args.to, 'to');
    const take = pageSize(args.first);
    const after = args.after ? decodeCursor(args.after) : null;
    // A private match is listed only in its own player's list, to that player.
    const includePrivate = !!args.playerId && args.playerId === viewer?.id;
    const read = () => this.repo.page({ ...args, includePrivate }, take + 1, after, count);
    // A count over every match waits its turn (GlobalCounts); one player's is that player's rows only.
    const { rows, total } = await (count && !args.playerId ? this.globalCounts.run(caller, read) : read());
    return matchPage(rows, take, viewer, total);
  }
}
