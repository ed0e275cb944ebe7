import {
  getOperationAST,
  GraphQLError,
  OperationTypeNode,
  type ExecutionArgs,
  type ExecutionResult,
  type FormattedExecutionResult,
  type GraphQLFormattedError,
  type GraphQLSchema,
} from 'graphql';
import type { SubscribePayload, Context as WsContext, ServerOptions } from 'graphql-ws';
import type { WebSocket } from 'ws';
import { OperationCache } from '../limits/operation-cache.js';
import { subscribeShared } from '../subscriptions/shared-execution.js';
import type { Limits } from '../config/limits.config.js';
import type { QueryLimits } from '../limits/query-limits.js';
import type { WsConnections } from '../limits/ws-connections.js';

type Ctx = WsContext<Record<string, unknown> | undefined, unknown>;

export interface GraphqlWsLimitsDeps {
  limits: Limits['ws'];
  queries: QueryLimits;
  connections: WsConnections;
  /** The executable schema, known once GraphQLModule has built it. */
  schema: () => GraphQLSchema;
  /** Authenticates the connection (the one auth path shared with HTTP); the player's id or null, false to refuse. */
  authenticate: (ctx: Ctx) => Promise<{ playerId: string | null } | false>;
  /** Runs first on every subscribe message (the rate limits): errors to refuse it, else nothing. */
  beforeSubscribe?: (ctx: Ctx) => Promise<readonly GraphQLError[] | void>;
  /** Runs on a subscribe message once it is known to start a subscription, before its cost check. */
  beforeSubscription?: (ctx: Ctx) => Promise<readonly GraphQLError[] | void>;
  /**
   * HTTP's last word on every error (format-error.ts), so the socket answers alike: known codes
   * as they are, anything else logged and masked as INTERNAL_SERVER_ERROR.
   */
  formatError: (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;
}

/**
 * The graphql-ws server's options that enforce the limits: the connection_init deadline, sockets
 * per player, subscriptions per socket, and the same parse, validation and cost checks as HTTP
 * (QueryLimits) before any resolver runs. Documents that pass are remembered in a cache bounded
 * in bytes; one that fails is never kept.
 */
export function graphqlWsLimitOptions(deps: GraphqlWsLimitsDeps): Partial<ServerOptions<Record<string, unknown> | undefined, unknown>> {
  const documents = new OperationCache(deps.limits.operationCacheBytes);
  // A shared event's result (shared-execution.ts) reaches every subscriber of its view as one
  // object: a failure in it is formatted (and logged, and counted) once, not once per socket.
  const formatted = new WeakMap<ExecutionResult, FormattedExecutionResult>();
  const withFormattedErrors = (result: ExecutionResult): FormattedExecutionResult => {
    let out = formatted.get(result);
    if (!out) formatted.set(result, (out = { ...result, errors: result.errors!.map((e) => deps.formatError(e.toJSON(), e)) }));
    return out;
  };
  return {
    connectionInitWaitTimeout: deps.limits.initTimeoutMs,
    // An event pushed to many subscribers is executed once per distinct selection (shared-execution.ts).
    subscribe: subscribeShared,
    onConnect: async (ctx) => {
      const who = await deps.authenticate(ctx);
      if (who === false) return false;
      const socket = (ctx.extra as { socket: WebSocket }).socket;
      return deps.connections.register(socket, ctx, who.playerId);
    },
    onSubscribe: async (ctx, id, payload): Promise<ExecutionArgs | readonly GraphQLError[]> => {
      // Counted before anything is awaited: graphql-ws enters each subscribe's id as it arrives, so
      // a count taken after an await would include the subscribes that arrived meanwhile.
      const tooMany = deps.connections.subscriptionLimitError(ctx);
      if (tooMany) return [tooMany];
      // graphql-ws tells an operation from a later one with the same id by the id alone: `complete`
      // then `subscribe` of an id whose first operation is still starting let both start, the first
      // one left out of its map (never ended, not even when the socket closed) and writing under the
      // second's id. Such a reuse is a duplicate id, as graphql-ws closes for one that runs: closing
      // the socket ends every operation of it, started or starting.
      const ids = startingIds(ctx);
      if (ids.has(id)) {
        const reason = `Subscriber for ${id} already exists (it is still starting)`;
        (ctx.extra as { socket: WebSocket }).socket.close(4409, reason);
        return [new GraphQLError(reason, { extensions: { code: 'BAD_REQUEST' } })];
      }
      ids.add(id);
      try {
        const checked = await check(ctx, payload);
        if (Array.isArray(checked)) ids.delete(id); // refused: graphql-ws ends the operation here
        return checked;
      } catch (e) {
        ids.delete(id);
        throw e;
      }
    },
    onOperation: (ctx, id, _payload, args, result) => {
      startingIds(ctx).delete(id);
      return refusedAsError(args, result);
    },
    // Results with errors only: a shared payload without errors is written before this hook (shared-execution.ts).
    onNext: (_ctx, _id, _payload, _args, result) => (result.errors ? withFormattedErrors(result) : undefined),
    onError: (_ctx, _id, _payload, errors) => errors.map((e) => deps.formatError(e.toJSON(), e)),
  };

  /** The checks of a subscribe message after the per-socket count: the errors that refuse it, or what to run. */
  async function check(ctx: Ctx, payload: SubscribePayload): Promise<ExecutionArgs | readonly GraphQLError[]> {
    const refused = await deps.beforeSubscribe?.(ctx);
    if (refused && refused.length > 0) return refused;
    const schema = deps.schema();
    let document = documents.get(payload.query);
    if (!document) {
      try {
        document = deps.queries.parse(payload.query);
      } catch (e) {
        if (e instanceof GraphQLError) return [withCode(e, 'GRAPHQL_PARSE_FAILED')];
        throw e;
      }
      const errors = deps.queries.validate(schema, document);
      if (errors.length > 0) return errors.map((e) => withCode(e, 'GRAPHQL_VALIDATION_FAILED'));
      documents.remember(payload.query, document);
    }
    const operation = getOperationAST(document, payload.operationName);
    if (!operation) return [operationResolutionError(payload.operationName)];
    if (operation.operation === OperationTypeNode.SUBSCRIPTION) {
      const refusedSubscription = await deps.beforeSubscription?.(ctx);
      if (refusedSubscription && refusedSubscription.length > 0) return refusedSubscription;
    }
    const costly = deps.queries.costError(schema, document, payload.variables, payload.operationName);
    if (costly) return [costly];
    return { schema, document, variableValues: payload.variables, operationName: payload.operationName };
  }
}

/** Per connection, the ids of the operations that are starting (between their subscribe message and onOperation). */
const starting = new WeakMap<Ctx, Set<string>>();

function startingIds(ctx: Ctx): Set<string> {
  let ids = starting.get(ctx);
  if (!ids) starting.set(ctx, (ids = new Set()));
  return ids;
}

/**
 * A subscription its resolver refused as it would start (graphql's subscribe answered a result,
 * not a stream: UNAUTHENTICATED for myTurns on an anonymous socket, NOT_FOUND, a bad afterSeq)
 * is answered like the refusals made before execution: one `error` message, no `next` and no
 * `complete`. graphql-ws sends `error` for a stream that throws, so the refusal is thrown from one.
 */
function refusedAsError(
  args: ExecutionArgs,
  result: ExecutionResult | AsyncIterable<ExecutionResult> | Promise<unknown>,
): AsyncIterable<never> | undefined {
  // graphql-ws hands this hook the settled result; a promise would be a stream still starting.
  if (result instanceof Promise || Symbol.asyncIterator in result || !result.errors?.length) return undefined;
  if (getOperationAST(args.document, args.operationName)?.operation !== OperationTypeNode.SUBSCRIPTION) return undefined;
  const refusal = result.errors[0];
  return { [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(refusal) }) };
}

/** A document whose operation to run cannot be told (several and no name, or an unknown name), as Apollo answers it on HTTP. */
function operationResolutionError(operationName: string | null | undefined): GraphQLError {
  const message =
    operationName != null ? `Unknown operation named "${operationName}".` : 'Must provide operation name if query contains multiple operations.';
  return new GraphQLError(message, { extensions: { code: 'OPERATION_RESOLUTION_FAILURE' } });
}

/** The code Apollo gives the same refusal on HTTP, so both transports answer alike. */
function withCode(error: GraphQLError, code: string): GraphQLError {
  if (error.extensions.code) return error;
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    extensions: { ...error.extensions, code },
  });
}
