const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `ok` holds; the deadline only bounds a failure. */
export async function eventually<T>(read: () => T | Promise<T>, ok: (v: T) => boolean, what: string, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > until) throw new Error(`${what}: still ${JSON.stringify(v)?.slice(0, 2000)} after ${timeoutMs} ms`);
    await sleep(25);
  }
}
