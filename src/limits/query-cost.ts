import {
  GraphQLError,
  Kind,
  getNamedType,
  getNullableType,
  getOperationAST,
  getVariableValues,
  isLeafType,
  isListType,
  visit,
  BREAK,
  type DocumentNode,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import { getComplexity, type ComplexityEstimator } from 'graphql-query-complexity';
import { DEFAULT_PAGE, MAX_PAGE } from '../common/pagination.js';
import { variablesShapeError } from './variables-shape.js';

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
  'WebhookDelivery.attempts': 20,
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
 *
 * A document whose cost cannot depend on its variables (no variable in a `first` nor in a
 * directive) is costed once per operation and remembered with the parsed document (documents
 * are cached by text, so the same text is the same object): every later request with it only
 * has its variables checked. Clients send the same few documents over and over.
 */
export function queryCostError(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | null | undefined,
  operationName: string | null | undefined,
  maxCost: number,
  maxCounts = Infinity,
): GraphQLError | null {
  // The variables first, so that nothing below coerces variables that are refused.
  const badVariables = variablesShapeError(variables) ?? variablesError(schema, document, variables, operationName);
  if (badVariables) return badVariables;
  const byOperation = rememberedCosts(document);
  const remembered = byOperation?.get(operationName ?? '');
  if (remembered) return remembered(maxCost, maxCounts);
  const outcome = costOf(schema, document, variables, operationName);
  if (outcome instanceof GraphQLError) return outcome;
  // A refusal for bad variables is not the document's: only a clean costing is remembered.
  byOperation?.set(operationName ?? '', outcome);
  return outcome(maxCost, maxCounts);
}

/** A costed operation: the refusal (or null) under given limits. */
type Costed = (maxCost: number, maxCounts: number) => GraphQLError | null;

/** Per document: its costings by operation name, or null when its cost depends on its variables. */
const costs = new WeakMap<DocumentNode, Map<string, Costed> | null>();

function rememberedCosts(document: DocumentNode): Map<string, Costed> | null {
  let byOperation = costs.get(document);
  if (byOperation === undefined) costs.set(document, (byOperation = costDependsOnVariables(document) ? null : new Map<string, Costed>()));
  return byOperation;
}

/** True when a variable feeds a `first` (a page size) or a directive (@skip/@include): the only inputs of the cost. */
function costDependsOnVariables(document: DocumentNode): boolean {
  let depends = false;
  visit(document, {
    enter(node) {
      depends =
        (node.kind === Kind.ARGUMENT && node.name.value === 'first' && node.value.kind === Kind.VARIABLE) ||
        (node.kind === Kind.DIRECTIVE && (node.arguments ?? []).some((a) => a.value.kind === Kind.VARIABLE));
      return depends ? BREAK : undefined;
    },
  });
  return depends;
}

/**
 * The variables coerced as execution coerces them, refused as BAD_USER_INPUT at the first value
 * that does not fit its type: the rest are not looked at (each error quotes the value it sits in).
 */
function variablesError(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | null | undefined,
  operationName: string | null | undefined,
): GraphQLError | null {
  const definitions = getOperationAST(document, operationName)?.variableDefinitions ?? [];
  if (definitions.length === 0) return null;
  const first = getVariableValues(schema, definitions, variables ?? {}, { maxErrors: 1 }).errors?.[0];
  return first ? new GraphQLError(first.message, { extensions: { code: 'BAD_USER_INPUT' } }) : null;
}

function costOf(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | null | undefined,
  operationName: string | null | undefined,
): Costed | GraphQLError {
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
  }
  const badFirst = findings.badFirst;
  const counts = countsIn(document, operationName);
  return (maxCost, maxCounts) => {
    if (badFirst !== undefined)
      return new GraphQLError(`first must be 1 to ${MAX_PAGE} (got ${JSON.stringify(badFirst)})`, {
        extensions: { code: 'BAD_USER_INPUT', limit: 'first', max: MAX_PAGE },
      });
    if (cost > maxCost)
      return new GraphQLError(`Query cost ${cost} exceeds the limit of ${maxCost} (GRAPHQL_MAX_COST)`, {
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED', limit: 'GRAPHQL_MAX_COST', max: maxCost, cost },
      });
    if (counts > maxCounts)
      return new GraphQLError(`Query makes ${counts} counts (totalCount fields, leaderboard pages), more than ${maxCounts} (GRAPHQL_MAX_COUNTS)`, {
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED', limit: 'GRAPHQL_MAX_COUNTS', max: maxCounts, counts },
      });
    return null;
  };
}

/** The root field whose page is ranked by counting every player before it (LeaderboardConnection). */
const ALWAYS_COUNTS = 'leaderboard';

/**
 * How many counts the operation makes. A count reads every row that passes its filters (every
 * public match, every ranked player) whatever the page's size, so the cost model cannot weigh it;
 * the counts an operation may make are capped instead (GRAPHQL_MAX_COUNTS): 30 aliased counts of
 * the whole match table are a scan apiece. Counted on the text, fragments expanded wherever they
 * are spread, and directives ignored: a field under `@skip` is still counted, as the resolvers
 * still count it (selectsField: when in doubt, selected). A `totalCount` is one count; so is a
 * `leaderboard`, which counts to rank its page whether or not `totalCount` is asked for (its own
 * `totalCount` comes from that count).
 */
function countsIn(document: DocumentNode, operationName: string | null | undefined): number {
  const fragments = new Map(
    document.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d.selectionSet] as const),
  );
  // A fragment's counts depend only on whether it is spread right under a leaderboard: each is
  // worked out once per case, so a chain of fragments spreading the next twice costs a walk of the
  // text, not 2^n (directives are ignored, so @skip hides no spread from this walk).
  const known = new Map<string, number>();
  const walk = (set: SelectionSetNode | undefined, parent: string): number =>
    (set?.selections ?? []).reduce((n, s) => {
      if (s.kind === Kind.INLINE_FRAGMENT) return n + walk(s.selectionSet, parent);
      if (s.kind === Kind.FRAGMENT_SPREAD) return n + spread(s.name.value, parent === ALWAYS_COUNTS);
      const name = s.name.value;
      const own = name === ALWAYS_COUNTS || (name === 'totalCount' && parent !== ALWAYS_COUNTS) ? 1 : 0;
      return n + own + walk(s.selectionSet, name);
    }, 0);
  const spread = (name: string, underLeaderboard: boolean): number => {
    const key = `${name}\u0000${underLeaderboard}`;
    const seen = known.get(key);
    if (seen !== undefined) return seen;
    known.set(key, 0); // a cycle (refused by validation anyway) counts nothing more
    const n = walk(fragments.get(name), underLeaderboard ? ALWAYS_COUNTS : '');
    known.set(key, n);
    return n;
  };
  return walk(getOperationAST(document, operationName)?.selectionSet, '');
}
