import type { LogFn, Logger as PinoLogger } from 'pino';

/**
 * A request whose client went away before its body arrived ends in Node's `aborted` error
 * (ECONNRESET), which reaches Nest's last-resort handler and was logged as a server error, stack
 * and all: one error line per aborted request, which any client could send by the thousand.
 * It says nothing about the server, so it is logged at debug level instead.
 */
export function isClientGone(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  return typeof e === 'object' && e !== null && e.code === 'ECONNRESET' && e.message === 'aborted';
}

/**
 * A write to a peer that has gone (its connection reset, or closed under the write): what a
 * WebSocket client that disconnects while an answer is on its way leaves behind. The socket's
 * close follows and cleans up; the error says nothing about the server.
 */
export function isPeerGone(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'EPIPE' || code === 'ECONNRESET' || code === 'ERR_STREAM_DESTROYED' || code === 'ERR_STREAM_WRITE_AFTER_END';
}

/** pino's `hooks.logMethod`: an error-level line about a client that went away goes out at debug. */
export function clientGoneAtDebug(this: PinoLogger, args: Parameters<LogFn>, method: LogFn, level: number): void {
  const first = args[0] as { err?: unknown } | undefined;
  if (level >= 50 && (isClientGone(first) || isClientGone(first?.err))) return void this.debug(...args);
  method.apply(this, args);
}
