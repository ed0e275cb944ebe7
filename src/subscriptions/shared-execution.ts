import { createSourceEventStream, execute, type DocumentNode, type ExecutionArgs, type ExecutionResult } from 'graphql';
import type { RequestContext, SerializedPayload } from '../players/auth.js';
import { PushIterator } from './push-iterator.js';

/**
 * graphql-js executes a subscription's selection set once per subscriber and per event, so one
 * move watched by 10,000 sockets resolved the same fields 10,000 times. Here a payload that a feed
 * declared shareable (one object per event and per view, handed to every subscriber of that view)
 * is executed once per distinct selection: the document, the operation name and the variables.
 * Subscribers that sent the same text share one result; graphql-ws then only serializes and writes.
 *
 * Sound only because the fields under a shareable payload resolve from the payload alone, never
 * from the subscriber's context: the view (seat or spectator) is already fixed by the payload
 * (match-feed builds one per view). A seat's view goes only to that seat's player, so its
 * subscribers share one caller; a spectators' view goes to anyone, so it runs with no caller at
 * all: a field that answers its caller alone (`Player.toMoveCount`, `Player.webhooks`), reached
 * through a spectator's payload, cannot hand the first subscriber's answer to the others. A
 * payload that is not marked runs per subscriber, as before.
 *
 * A shared result is also serialized once: while graphql-ws waits for a subscription's next
 * value (everything before it was written), the value is written to the socket directly, its
 * `next` message built around that one serialization (see `sendNext` in the graphql context).
 * graphql-ws would otherwise run a promise chain and a JSON.stringify of the same payload per
 * socket, which at 10,000 watchers of one match took most of a move's fan-out.
 */

/** Shareable payloads, and whether theirs is a view for anyone (a spectators'), run without a caller. */
const shareable = new WeakMap<object, { forAnyone: boolean }>();
/** A shared result's JSON (the payload of every subscriber's `next` message) and the messages built around it. */
const serialized = new WeakMap<ExecutionResult, SerializedPayload>();
const results = new WeakMap<object, Map<string, ExecutionResult | Promise<ExecutionResult>>>();
const documentIds = new WeakMap<DocumentNode, number>();
let nextDocumentId = 1;
/** A subscription's arguments are one object for its whole life: its key is worked out once. */
const selectionKeys = new WeakMap<ExecutionArgs, string>();

/**
 * Marks a payload that every subscriber it is pushed to may see. `forAnyone`: it is pushed to
 * subscribers who are different callers (a spectators' view), so it is executed without a caller;
 * otherwise every subscriber it reaches is the same caller (a seat's view).
 */
export function shareablePayload<T extends object>(payload: T, { forAnyone }: { forAnyone: boolean }): T {
  shareable.set(payload, { forAnyone });
  return payload;
}

function isShareable(payload: unknown): payload is object {
  return typeof payload === 'object' && payload !== null && shareable.has(payload);
}

/**
 * The selection's identity. Documents come from the operation cache (one parsed object per text),
 * so the object stands for the text; a document parsed twice only costs a second execution.
 */
function selectionKey(args: ExecutionArgs): string {
  let key = selectionKeys.get(args);
  if (key !== undefined) return key;
  let id = documentIds.get(args.document);
  if (id === undefined) documentIds.set(args.document, (id = nextDocumentId++));
  const variables = args.variableValues ? JSON.stringify(args.variableValues) : '';
  selectionKeys.set(args, (key = `${id}\u0000${args.operationName ?? ''}\u0000${variables}`));
  return key;
}

/** One event's result for this subscriber: shared with every subscriber of the same selection when the payload allows it. */
export function executeEvent(args: ExecutionArgs, payload: unknown): ExecutionResult | Promise<ExecutionResult> {
  if (!isShareable(payload)) return execute({ ...args, rootValue: payload });
  let byKey = results.get(payload);
  if (!byKey) results.set(payload, (byKey = new Map<string, ExecutionResult | Promise<ExecutionResult>>()));
  const key = selectionKey(args);
  let result = byKey.get(key);
  if (!result) {
    const contextValue = shareable.get(payload)!.forAnyone ? withoutCaller(args.contextValue) : args.contextValue;
    const executed = execute({ ...args, contextValue, rootValue: payload });
    byKey.set(key, (result = executed instanceof Promise ? executed.then(plain) : plain(executed)));
  }
  return result;
}

/** The subscriber's context as an anonymous caller's: the same connection, no player. */
function withoutCaller(context: unknown): unknown {
  return typeof context === 'object' && context !== null ? { ...context, player: null } : context;
}

/**
 * graphql-js builds results from null-prototype objects, which V8 keeps as dictionaries: every
 * subscriber's JSON.stringify of a shared result walks those slowly. One round trip through JSON
 * turns them into plain objects once per selection. Errors keep their GraphQLError objects.
 */
function plain(result: ExecutionResult): ExecutionResult {
  if (result.errors) return result;
  return JSON.parse(JSON.stringify(result)) as ExecutionResult;
}

/** graphql-js `subscribe` with each event executed through executeEvent (for graphql-ws's `subscribe` option). */
export async function subscribeShared(args: ExecutionArgs): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> {
  const stream = await createSourceEventStream(args);
  if (!isAsyncIterable(stream)) return stream;
  const sendNext = (args.contextValue as RequestContext | undefined)?.connection?.sendNext;
  if (sendNext && stream instanceof PushIterator) stream.direct = (payload: unknown) => deliverShared(args, payload, sendNext);
  return mapEvents(stream, (payload) => executeEvent(args, payload));
}

/**
 * Writes a shareable payload's result to the subscriber's socket itself: true when written,
 * false to leave the payload to graphql-ws (not shareable, a result with errors, a socket that
 * is closing or behind).
 */
function deliverShared(args: ExecutionArgs, payload: unknown, sendNext: (payload: SerializedPayload) => boolean): boolean | Promise<boolean> {
  if (!isShareable(payload)) return false;
  const send = (result: ExecutionResult): boolean => {
    if (result.errors) return false;
    let once = serialized.get(result);
    if (once === undefined) serialized.set(result, (once = { json: JSON.stringify(result), messages: new Map() }));
    return sendNext(once);
  };
  const result = executeEvent(args, payload);
  return result instanceof Promise ? result.then(send) : send(result);
}

function isAsyncIterable(x: unknown): x is AsyncIterable<unknown> {
  return typeof (x as AsyncIterable<unknown> | null)?.[Symbol.asyncIterator] === 'function';
}

/** As graphql-js's own mapAsyncIterator: return() and throw() reach the source, so closing a socket ends its feed. */
function mapEvents<T, U>(iterable: AsyncIterable<T>, map: (value: T) => U | Promise<U>): AsyncIterableIterator<U> {
  const source = iterable[Symbol.asyncIterator]();
  const mapResult = async (r: IteratorResult<T>): Promise<IteratorResult<U>> => {
    if (r.done) return r as IteratorResult<U>;
    try {
      return { value: await map(r.value), done: false };
    } catch (error) {
      try {
        await source.return?.();
      } catch {
        // the mapping's error is the one to report
      }
      throw error;
    }
  };
  return {
    next: async () => mapResult(await source.next()),
    return: async () => (source.return ? mapResult(await source.return()) : { value: undefined, done: true }),
    throw: async (error?: unknown) => {
      if (source.throw) return mapResult(await source.throw(error));
      throw error;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
