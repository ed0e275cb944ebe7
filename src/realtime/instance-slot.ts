import { Logger } from '@nestjs/common';
import pg from 'pg';
import { StartupRefusal } from '../common/start-failure.js';
import { dedicatedSession, dropSession, watchSession } from '../database/session-heartbeat.js';

/** Injection token: this instance's standing on its database (InstanceSlot), for readiness. */
export const INSTANCE_STANDING = Symbol('INSTANCE_STANDING');

/** Whether this instance lost its lock to an instance its PUBSUB cannot run beside. */
export interface InstanceStanding {
  readonly conflicting: boolean;
}

/** One advisory-lock key for "a server instance uses this database" (per database, as all advisory locks). */
export const INSTANCE_KEY = 0x646f6d696e6f; // "domino"
const RETRY_MS = 2000;

/**
 * Makes the PUBSUB choice safe with several instances. An instance with PUBSUB=memory hears only
 * its own commits, so a second instance on its database would serve stale matches to it and it
 * to the second: it takes the instance key exclusively, instances with PUBSUB=postgres take it
 * shared, and start-up is refused when those cannot mix. The lock lives as long as this session;
 * if the session drops it is taken again (and a conflict then is logged loudly).
 */
export class InstanceSlot implements InstanceStanding {
  private readonly logger = new Logger(InstanceSlot.name);
  private client: pg.Client | null = null;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;
  private unwatch = () => {};
  /** Its lock was lost and another instance's mode now excludes this one: readiness says so. */
  conflicting = false;

  private constructor(
    private readonly url: string,
    private readonly mode: 'memory' | 'postgres',
    /** How often the lock's session is asked to answer (DB_HEARTBEAT_MS), see watchSession. */
    private readonly heartbeatMs: number,
  ) {}

  static async claim(url: string, mode: 'memory' | 'postgres', heartbeatMs: number): Promise<InstanceSlot> {
    const slot = new InstanceSlot(url, mode, heartbeatMs);
    if (!(await slot.take())) {
      throw new StartupRefusal(
        mode === 'memory'
          ? 'another server instance uses this database, and PUBSUB=memory serves a single instance: stop the other one, or set PUBSUB=postgres on every instance'
          : 'a server instance with PUBSUB=memory uses this database: set PUBSUB=postgres on every instance (or stop that one)',
      );
    }
    return slot;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    this.unwatch();
    await this.client?.end().catch(() => {});
  }

  /** Connects and tries the lock; false when another instance's mode excludes this one. */
  private async take(): Promise<boolean> {
    const client = dedicatedSession(this.url, 'dominoes-instance', this.heartbeatMs);
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    await client.connect();
    const fn = this.mode === 'memory' ? 'pg_try_advisory_lock' : 'pg_try_advisory_lock_shared';
    const { rows } = await client.query<{ ok: boolean }>(`SELECT ${fn}($1::bigint) AS ok`, [INSTANCE_KEY]);
    if (!rows[0].ok) {
      await client.end().catch(() => {});
      return false;
    }
    this.client = client;
    this.unwatch = watchSession(client, this.heartbeatMs, () => this.lost(client));
    return true;
  }

  private lost(client: pg.Client): void {
    if (this.client !== client || this.closed) return;
    this.client = null;
    this.unwatch();
    dropSession(client);
    // Until it is taken again, another instance of the excluded mode could start on this database.
    this.logger.warn('the instance lock session was lost: taking the lock again');
    this.retry = setTimeout(() => void this.retake(), RETRY_MS);
    this.retry.unref();
  }

  private async retake(): Promise<void> {
    if (this.closed) return;
    try {
      if (!(await this.take())) {
        // Serving on would show stale matches to this instance's subscribers (or the other's):
        // readiness goes down, so that a load balancer sends traffic elsewhere until this is solved.
        this.conflicting = true;
        this.logger.error(`PUBSUB=${this.mode} conflicts with another instance on this database: stop one of them`);
      } else {
        this.logger.log('instance lock taken again');
        return void (this.conflicting = false);
      }
    } catch (e) {
      this.logger.warn(`cannot take the instance lock again yet: ${e instanceof Error ? e.message : String(e)}`);
    }
    this.retry = setTimeout(() => void this.retake(), RETRY_MS);
    this.retry.unref();
  }
}
