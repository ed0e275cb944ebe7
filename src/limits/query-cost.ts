import { GraphQLError, getNamedType, isLeafType, isListType, getNullableType, type DocumentNode, type GraphQLSchema } from 'graphql';
import { getComplexity, type ComplexityEstimator } from 'graphql-query-complexity';
import { DEFAULT_PAGE, MAX_PAGE } from '../common/pagination.js';

/**
 * What a field costs, in units of "one value written into the answer". A field costs 1 plus what
 * its selection costs, times how many items it stands for: `first` for a page (its default when
 * omitted), an estimate for the lists no argument bounds. `Round.boardAt` replays a round, so it
 * costs as much as reading the round's moves. The estimates are on the high side of a real match
 * (a handful of rounds, each of at most ~30 moves counting draws and passes).
 */
export const LIST_ESTIMATES: Readonly<Record<string, number>> = {
  'Match.rounds': 6,
  'Round.moves': 25,
  // A page's edges: `first` already counted them.
  'MatchConnection.edges': 1,
  'LeaderboardConnection.edges': 1,
  // Hands, seats, legal moves, open ends: bounded by the game itself (at most 28 tiles).
  default: 4,
};
export const BOARD_AT_COST = 25;
/**
 * A subscription's selection is answered again for every event (a catch-up sends every stored
 * one): it counts this many times, so a selection that is fine for one query is not sent
 * hundreds of times over.
 */
export const SUBSCRIPTION_EVENTS = 10;
/** Fields visited while costing, fragments expanded: a fragment fan-out stops here, not in memory. */
const MAX_QUERY_NODES = 10_000;

/** A `first` outside 1..MAX_PAGE, found while costing: refused as BAD_USER_INPUT before anything runs. */
interface Findings {
  badFirst: unknown;
}

function estimator(findings: Findings): ComplexityEstimator {
  return ({ type, field, args, childComplexity }) => {
    if (isLeafType(getNamedType(field.type))) return 1;
    const key = `${type.name}.${field.name}`;
    if (field.args.some((a) => a.name === 'first')) {
      const first = args.first as unknown;
      if (first !== undefined && first !== null && (!Number.isInteger(first) || (first as number) < 1 || (first as number) > MAX_PAGE))
        findings.badFirst ??= first;
      const n = typeof first === 'number' ? Math.min(Math.max(first, 1), MAX_PAGE) : DEFAULT_PAGE;
      return 1 + n * childComplexity;
    }
    if (key === 'Round.boardAt') return BOARD_AT_COST + childComplexity;
    if (type.name === 'Subscription') return 1 + SUBSCRIPTION_EVENTS * childComplexity;
    if (isListType(getNullableType(field.type))) return 1 + (LIST_ESTIMATES[key] ?? LIST_ESTIMATES.default) * childComplexity;
    return 1 + childComplexity;
  };
}

/**
 * The cost check of one operation with its variables, the same for HTTP and graphql-ws: null when
 * it may run, else the error to answer with (no resolver has run yet).
 */
export function queryCostError(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | null | undefined,
  operationName: string | null | undefined,
  maxCost: number,
): GraphQLError | null {
  const findings: Findings = { badFirst: undefined };
  let cost: number;
  try {
    cost = getComplexity({
      schema,
      query: document,
      variables: variables ?? {},
      operationName: operationName ?? undefined,
      estimators: [estimator(findings)],
      maxQueryNodes: MAX_QUERY_NODES,
    });
  } catch (e) {
    if (!(e instanceof GraphQLError)) throw e;
    if (/maximum allowed number of nodes/.test(e.message))
      return new GraphQLError(`Query has more than ${MAX_QUERY_NODES} fields once its fragments are expanded`, {
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED', limit: 'nodes', max: MAX_QUERY_NODES },
      });
    // Bad variables: execution would refuse them the same way, with the same message.
    return new GraphQLError(e.message, { extensions: { code: 'BAD_USER_INPUT' } });
    throw e;
  }
  if (findings.badFirst !== undefined)
    return new GraphQLError(`first must be 1 to ${MAX_PAGE} (got ${JSON.stringify(findings.badFirst)})`, {
      extensions: { code: 'BAD_USER_INPUT', limit: 'first', max: MAX_PAGE },
    });
  if (cost > maxCost)
    return new GraphQLError(`Query cost ${cost} exceeds the limit of ${maxCost} (GRAPHQL_MAX_COST)`, {
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED', limit: 'GRAPHQL_MAX_COST', max: maxCost, cost },
    });
  return null;
}
