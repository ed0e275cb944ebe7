import { ConfigError } from '../config/config.js';

/** A start-up refusal an operator can act on: its message is the one-line reason printed. */
export class StartupRefusal extends Error {}

/**
 * One line a human can act on, never a stack trace, whatever start-up threw (even a rejection
 * with no error at all, as a dependency may give).
 */
export function reasonOf(e: unknown): string {
  if (e === null || e === undefined) return 'start-up failed without a reason (set LOG_LEVEL=debug for details)';
  if (typeof e !== 'object') return (e as string | number | boolean | bigint | symbol).toString();
  const err = e as NodeJS.ErrnoException & { address?: string; port?: number };
  if (e instanceof ConfigError || e instanceof StartupRefusal) return e.message;
  if (err.code === 'EADDRINUSE') return `port ${err.port ?? ''} is already in use (set PORT)`;
  if (err.code === 'EACCES') return `no permission to listen on port ${err.port ?? ''} (set PORT)`;
  if (err.code === 'ECONNREFUSED' || err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN')
    return `cannot reach the database: ${err.message} (check DATABASE_URL)`;
  if (typeof err.code === 'string' && /^(28|3D|08)/.test(err.code)) return `database refused the connection: ${err.message} (check DATABASE_URL)`;
  const message = (typeof err.message === 'string' && err.message ? err.message : JSON.stringify(e)).replace(/\s*\n\s*/g, ' ').trim();
  if (/reach database server|database .* does not exist|authentication failed/i.test(message))
    return `cannot reach the database: ${message} (check DATABASE_URL)`;
  return message;
}
