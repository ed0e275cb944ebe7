import { Writable } from 'node:stream';
import pino from 'pino';
import { clientGoneAtDebug, isPeerGone } from './client-gone.js';

function logger(): { log: pino.Logger; levels: () => number[] } {
  const lines: string[] = [];
  const sink = new Writable({ write: (chunk: Buffer, _enc, done) => (lines.push(chunk.toString()), done()) });
  const log = pino({ level: 'debug', hooks: { logMethod: clientGoneAtDebug } }, sink);
  return { log, levels: () => lines.map((l) => (JSON.parse(l) as { level: number }).level) };
}

describe('clientGoneAtDebug (a client that went away is no server error)', () => {
  it("logs Node's aborted request error at debug level, however it is passed", () => {
    const { log, levels } = logger();
    const aborted = Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
    log.error({ err: aborted, context: 'ExceptionsHandler' }, 'aborted');
    log.error(aborted);
    log.fatal({ err: aborted });
    expect(levels()).toEqual([20, 20, 20]);
  });

  it('leaves every other error, and every other level, as it was', () => {
    const { log, levels } = logger();
    log.error({ err: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) });
    log.error({ err: new Error('aborted') });
    log.error('aborted');
    log.warn({ err: Object.assign(new Error('aborted'), { code: 'ECONNRESET' }) });
    expect(levels()).toEqual([50, 50, 50, 40]);
  });
});

describe('isPeerGone (a write to a client that went away)', () => {
  it('is a broken pipe, a reset or a destroyed stream, and nothing else', () => {
    const withCode = (code: string) => Object.assign(new Error(code), { code });
    expect(['EPIPE', 'ECONNRESET', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_WRITE_AFTER_END'].map((c) => isPeerGone(withCode(c)))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect([withCode('ENOMEM'), new Error('EPIPE'), null, undefined, 'EPIPE'].map(isPeerGone)).toEqual([false, false, false, false, false]);
  });
});
