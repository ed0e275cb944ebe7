import { encodeCursor } from '../common/pagination.js';
import type { Player } from '../players/models/player.model.js';
import type { LoadedMatch } from './loaded-match.js';
import { matchModel } from './match-view.js';
import type { MatchConnection } from './models/match-connection.model.js';

/**
 * A page of matches as this viewer may see them, from `take + 1` rows (the extra one says there
 * is a next page). `total` is null when the query did not select totalCount, so it was not counted.
 */
export function matchPage(rows: readonly LoadedMatch[], take: number, viewer: Player | null, total: number | null): MatchConnection {
  const edges = rows.slice(0, take).map((r) => ({ cursor: encodeCursor(r.createdAt, r.id), node: matchModel(r, viewer) }));
  return {
    get totalCount(): number {
      // Never read unless selected (see selectsField): a read here would be a wrong answer, so it is a loud one.
      if (total === null) throw new Error('totalCount was not counted for this page');
      return total;
    },
    pageInfo: { hasNextPage: rows.length > take, endCursor: edges.at(-1)?.cursor ?? null },
    edges,
  };
}
