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
