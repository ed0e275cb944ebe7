import { PushIterator } from './push-iterator.js';

describe('PushIterator', () => {
  it('delivers pushed values in order, whether pushed before or after next()', async () => {
    const it = new PushIterator<number>(() => {});
    it.push(1);
    const pending = it.next();
    it.push(2);
    expect(await pending).toEqual({ value: 1, done: false });
    expect(await it.next()).toEqual({ value: 2, done: false });
  });

  it('return() settles a waiting next() at once and runs the cleanup exactly once', async () => {
    let cleaned = 0;
    const it = new PushIterator<number>(() => cleaned++);
    const waiting = it.next();
    await it.return();
    expect(await waiting).toEqual({ value: undefined, done: true });
    await it.return();
    expect(cleaned).toBe(1);
    it.push(3);
    expect(await it.next()).toEqual({ value: undefined, done: true });
  });

  it('fail() rejects the waiting next() and cleans up', async () => {
    let cleaned = 0;
    const it = new PushIterator<number>(() => cleaned++);
    const waiting = it.next();
    it.fail(new Error('boom'));
    await expect(waiting).rejects.toThrow('boom');
    expect(cleaned).toBe(1);
  });

  it('complete() ends the stream after what is queued, and at once when nothing is', async () => {
    let cleaned = 0;
    const it = new PushIterator<number>(() => cleaned++);
    it.push(1);
    it.push(2);
    it.complete();
    expect(await it.next()).toEqual({ value: 1, done: false });
    expect(await it.next()).toEqual({ value: 2, done: false });
    expect(await it.next()).toEqual({ value: undefined, done: true });
    expect(cleaned).toBe(1);
    const idle = new PushIterator<number>(() => cleaned++);
    const waiting = idle.next();
    idle.complete();
    expect(await waiting).toEqual({ value: undefined, done: true });
    expect(cleaned).toBe(2);
  });
});

describe('PushIterator with a bounded queue', () => {
  it('ends, drops what it held and calls overflow once when a push finds the queue full', async () => {
    let overflows = 0;
    let cleaned = 0;
    const it = new PushIterator<number>(
      () => cleaned++,
      3,
      () => overflows++,
    );
    for (const n of [1, 2, 3]) it.push(n);
    expect(it.queued).toBe(3);
    it.push(4);
    expect(overflows).toBe(1);
    expect(cleaned).toBe(1);
    expect(it.queued).toBe(0);
    it.push(5);
    expect(overflows).toBe(1);
    expect(await it.next()).toEqual({ value: undefined, done: true });
  });

  it('a value handed straight to a waiting reader does not count against the bound', async () => {
    let overflows = 0;
    const it = new PushIterator<number>(
      () => {},
      1,
      () => overflows++,
    );
    const waiting = it.next();
    it.push(1);
    it.push(2);
    expect(await waiting).toEqual({ value: 1, done: false });
    expect(overflows).toBe(0);
    expect(await it.next()).toEqual({ value: 2, done: false });
  });

  it('drained() resolves once the reader took everything queued', async () => {
    const it = new PushIterator<number>(() => {}, 10);
    it.push(1);
    it.push(2);
    let drained = false;
    const d = it.drained().then(() => (drained = true));
    await it.next();
    await Promise.resolve();
    expect(drained).toBe(false);
    await it.next();
    await d;
    expect(drained).toBe(true);
  });

  it('drained() waits for a direct delivery still deciding, and for what came behind it', async () => {
    const it = new PushIterator<number>(() => {}, 10);
    const decisions: ((ok: boolean) => void)[] = [];
    it.direct = () => new Promise<boolean>((resolve) => decisions.push(resolve));
    const reading = it.next(); // the reader waits: the next value goes out directly
    it.push(1); // deciding (its result takes a while to execute)
    it.push(2); // behind it
    let drained = false;
    const d = it.drained().then(() => (drained = true));
    await Promise.resolve();
    expect(drained).toBe(false); // nothing is queued, yet nothing is out either
    decisions.shift()!(true); // 1 delivered; 2 now decides in turn
    await new Promise((r) => setImmediate(r));
    expect(drained).toBe(false);
    decisions.shift()!(true);
    await d;
    expect(drained).toBe(true);
    void reading;
  });

  describe('direct delivery', () => {
    it('delivers past a waiting reader, and leaves to the reader what it declines or what comes while the reader is busy', async () => {
      const it = new PushIterator<number>(() => {});
      const direct: number[] = [];
      it.direct = (v) => v % 2 === 0 && (direct.push(v), true);
      it.push(1); // nobody waits: queued
      expect(await it.next()).toEqual({ value: 1, done: false });
      const waiting = it.next();
      it.push(2); // taken directly: the reader keeps waiting
      it.push(4);
      it.push(5); // declined: the reader gets it
      expect(await waiting).toEqual({ value: 5, done: false });
      it.push(6); // the reader is not waiting (it has not asked again): queued, not direct
      expect(await it.next()).toEqual({ value: 6, done: false });
      expect(direct).toEqual([2, 4]);
    });

    it('keeps the order while a direct delivery decides: what comes meanwhile, and completion, wait behind it', async () => {
      const it = new PushIterator<number>(() => {});
      const order: string[] = [];
      let decide!: (ok: boolean) => void;
      it.direct = (v) => {
        if (v === 1)
          return new Promise<boolean>((resolve) => (decide = resolve)).then((ok) => {
            if (ok) order.push('direct 1');
            return ok;
          });
        order.push(`direct ${v}`);
        return true;
      };
      const first = it.next();
      it.push(1);
      it.push(2);
      it.complete();
      decide(false); // declined after all: the reader gets 1 first, then 2 (queued: the reader is busy), then the end
      const taken: unknown[] = [(await first).value];
      for (let r = await it.next(); !r.done; r = await it.next()) taken.push(r.value);
      expect(taken).toEqual([1, 2]);
      expect(order).toEqual([]);
    });

    it('delivers in order when a deciding delivery succeeds, then whatever waited behind it', async () => {
      const it = new PushIterator<number>(() => {});
      const written: number[] = [];
      let decide!: (ok: boolean) => void;
      it.direct = (v) => {
        if (v === 1) return new Promise<boolean>((resolve) => (decide = resolve)).then((ok) => (ok && written.push(1), ok));
        written.push(v);
        return true;
      };
      const waiting = it.next();
      it.push(1);
      it.push(2);
      expect(written).toEqual([]);
      decide(true);
      await new Promise((r) => setImmediate(r));
      expect(written).toEqual([1, 2]);
      it.complete();
      expect(await waiting).toEqual({ value: undefined, done: true });
    });
  });
});
