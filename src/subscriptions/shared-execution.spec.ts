import { buildSchema, parse, type ExecutionArgs } from 'graphql';
import type { SerializedPayload } from '../players/auth.js';
import { PushIterator } from './push-iterator.js';
import { executeEvent, shareablePayload, subscribeShared } from './shared-execution.js';

describe('executeEvent', () => {
  let calls = 0;
  const schema = buildSchema('type Query { x: Int } type Subscription { ev: Ev } type Ev { n: Int, label(prefix: String): String }');
  const rootOf = (n: number) => ({
    ev: {
      n: () => (calls++, n),
      label: ({ prefix }: { prefix?: string }) => `${prefix ?? ''}${n}`,
    },
  });
  const small = parse('subscription { ev { n } }');
  const withArg = parse('subscription($p: String) { ev { n label(prefix: $p) } }');
  const args = (document: ExecutionArgs['document'], variableValues?: Record<string, unknown>): ExecutionArgs => ({
    schema,
    document,
    variableValues,
  });

  beforeEach(() => (calls = 0));

  it('executes a shareable payload once per document and variables, whoever asks', async () => {
    const payload = shareablePayload(rootOf(7), { forAnyone: false });
    const r1 = await executeEvent({ ...args(small), contextValue: { who: 1 } }, payload);
    const r2 = await executeEvent({ ...args(small), contextValue: { who: 2 } }, payload);
    expect(r1).toBe(r2);
    expect(r1).toEqual({ data: { ev: { n: 7 } } });
    expect(calls).toBe(1);
    const a = await executeEvent(args(withArg, { p: 'a' }), payload);
    const b = await executeEvent(args(withArg, { p: 'b' }), payload);
    expect(a).toEqual({ data: { ev: { n: 7, label: 'a7' } } });
    expect(b).toEqual({ data: { ev: { n: 7, label: 'b7' } } });
    expect(calls).toBe(3);
  });

  it("runs a view for anyone without a caller, so no subscriber gets another's caller-only answer; a seat's view keeps its caller", async () => {
    const callerSchema = buildSchema('type Query { x: Int } type Subscription { ev: Ev } type Ev { mine: String }');
    const doc = parse('subscription { ev { mine } }');
    // A field that answers its caller alone, as Player.webhooks does.
    const root = () => ({ ev: { mine: (_: unknown, ctx: { player: { id: string } | null }) => (ctx.player ? `secret of ${ctx.player.id}` : null) } });
    const run = (payload: object, player: string) =>
      executeEvent({ schema: callerSchema, document: doc, contextValue: { player: { id: player }, connection: {} } }, payload);
    const spectators = shareablePayload(root(), { forAnyone: true });
    expect(await run(spectators, 'first')).toEqual({ data: { ev: { mine: null } } });
    expect(await run(spectators, 'second')).toEqual({ data: { ev: { mine: null } } });
    const seat = shareablePayload(root(), { forAnyone: false });
    expect(await run(seat, 'seated')).toEqual({ data: { ev: { mine: 'secret of seated' } } });
  });

  it('executes an unmarked payload for each subscriber', async () => {
    const payload = rootOf(3);
    await executeEvent(args(small), payload);
    await executeEvent(args(small), payload);
    expect(calls).toBe(2);
  });

  it('never shares between two payloads of the same shape', async () => {
    const r1 = await executeEvent(args(small), shareablePayload(rootOf(1), { forAnyone: false }));
    const r2 = await executeEvent(args(small), shareablePayload(rootOf(2), { forAnyone: false }));
    expect([r1, r2]).toEqual([{ data: { ev: { n: 1 } } }, { data: { ev: { n: 2 } } }]);
  });
});

describe('subscribeShared', () => {
  const schema = buildSchema('type Query { x: Int } type Subscription { ev: Ev } type Ev { n: Int }');
  const document = parse('subscription { ev { n } }');

  /** A subscription over a PushIterator, on a connection whose direct writes land in `written` (refused when `accept` says so). */
  async function subscription(accept: () => boolean = () => true) {
    const source = new PushIterator<object>(() => {});
    const written: string[] = [];
    const sendNext = (payload: SerializedPayload) => accept() && written.push(payload.json) > 0;
    const stream = await subscribeShared({
      schema,
      document,
      rootValue: { ev: () => source },
      contextValue: { connection: { fellBehind: () => {}, sendNext } },
    });
    if (!('next' in stream)) throw new Error('expected a stream');
    return { source, written, stream };
  }

  it('writes a shareable result directly while the reader waits; anything else reaches the reader', async () => {
    const { source, written, stream } = await subscription();
    const reading = stream.next();
    const shared = shareablePayload({ ev: { n: 1 } }, { forAnyone: false });
    source.push(shared);
    source.push(shared);
    await new Promise((r) => setImmediate(r));
    expect(written).toEqual(['{"data":{"ev":{"n":1}}}', '{"data":{"ev":{"n":1}}}']);
    source.push({ ev: { n: 2 } }); // not shareable: graphql-ws's path
    expect(await reading).toEqual({ value: { data: { ev: { n: 2 } } }, done: false });
  });

  it('leaves the value to the reader when the connection refuses a direct write', async () => {
    const { source, written, stream } = await subscription(() => false);
    const reading = stream.next();
    source.push(shareablePayload({ ev: { n: 3 } }, { forAnyone: false }));
    expect(await reading).toEqual({ value: { data: { ev: { n: 3 } } }, done: false });
    expect(written).toEqual([]);
  });
});
