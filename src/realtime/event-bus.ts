import { EventEmitter } from 'node:events';
import { Logger } from '@nestjs/common';
import pg from 'pg';
import { dedicatedSession, dropSession, KEEP_ALIVE, watchSession } from '../database/session-heartbeat.js';

/**
 * What crosses between server instances: "match M has events up to seq S, and it has just
 * become player P's turn" (or "it has just ended for players P, Q"). Small on purpose: subscribers read the events themselves from the
 * database, so ordering and completeness come from the table, never from the transport.
 */
export interface MatchSignal {
  matchId: string;
  lastSeq: number;
  version: number;
  /** the player whose turn it has just become, when that is a human */
  turnPlayerId: string | null;
  /**
   * players to push the match to whatever the turn: its players when this commit ended it
   * (FINISHED or ABANDONED), and again when it offered the finished match's rematch, the one
   * news of a match after its end (the name predates that second use and is kept on the wire)
   */
  endedFor?: string[];
}

export interface EventBus {
  publish(signal: MatchSignal): Promise<void>;
  /** Every signal, from this instance and (multi-instance transports) from the others. */
  onSignal(handler: (signal: MatchSignal) => void): void;
  /**
   * Called when signals may have been missed (the transport reconnected): whoever keeps state
   * derived from signals re-reads it from the database.
   */
  onResync(handler: () => void): void;
  close(): Promise<void>;
}

export const EVENT_BUS = Symbol('EVENT_BUS');

/** One process: signals go straight to this process's subscribers. */
export class InMemoryEventBus implements EventBus {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  async publish(signal: MatchSignal): Promise<void> {
    this.emitter.emit('signal', signal);
  }

  onSignal(handler: (signal: MatchSignal) => void): void {
    this.emitter.on('signal', handler);
  }

  onResync(handler: () => void): void {
    this.emitter.on('resync', handler);
  }

  /** In one process nothing is ever missed; a transport built on this one calls it after a reconnect. */
  resync(): void {
    this.emitter.emit('resync');
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}

const CHANNEL = 'dominoes_match_events';
const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 5000;

/**
 * Several instances sharing one database: PostgreSQL LISTEN/NOTIFY, which needs no extra
 * service and works on the embedded database too. The LISTEN session is watched: when it drops
 * (a database restart, a network cut, a terminated backend) it is re-established with backoff,
 * for as long as it takes, and once it is back a resync tells every consumer that signals may
 * have been missed: the match cache forgets what it knew and every open feed reads the events
 * it missed from the table.
 */
export class PostgresEventBus implements EventBus {
  private readonly logger = new Logger(PostgresEventBus.name);
  private readonly notifier: pg.Pool;
  private readonly local = new InMemoryEventBus();
  private listener: pg.Client | null = null;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;

  private unwatch = () => {};

  constructor(
    private readonly url: string,
    /** How often the LISTEN session is asked to answer (DB_HEARTBEAT_MS), see watchSession. */
    private readonly heartbeatMs: number,
  ) {
    // A NOTIFY that gets no answer fails in time: the command that sent it has committed and answered.
    this.notifier = new pg.Pool({ connectionString: url, max: 2, query_timeout: heartbeatMs, ...KEEP_ALIVE });
    this.notifier.on('error', () => {}); // an idle connection dropped: the next publish opens another
  }

  /** The first LISTEN must work (start-up fails otherwise); later drops reconnect by themselves. */
  async start(): Promise<void> {
    await this.listen();
  }

  async publish(signal: MatchSignal): Promise<void> {
    const notify = () => this.notifier.query('SELECT pg_notify($1, $2)', [CHANNEL, JSON.stringify(signal)]);
    // Once more on a failure: the pool has dropped the connection that failed (a restart, a peer
    // gone silent), and the next one is likely fresh. Past that, the feeds' re-check finds the commit.
    await notify().catch(notify);
  }

  onSignal(handler: (signal: MatchSignal) => void): void {
    this.local.onSignal(handler);
  }

  onResync(handler: () => void): void {
    this.local.onResync(handler);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    this.unwatch();
    await this.local.close();
    await this.listener?.end().catch(() => {});
    await this.notifier.end().catch(() => {});
  }

  private async listen(): Promise<void> {
    const client = dedicatedSession(this.url, 'dominoes-listen', this.heartbeatMs);
    client.on('notification', (n) => {
      if (n.channel !== CHANNEL || !n.payload) return;
      try {
        void this.local.publish(JSON.parse(n.payload) as MatchSignal);
      } catch {
        // Not ours: ignore anything on the channel that is not a signal.
      }
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (e) {
      await client.end().catch(() => {});
      throw e;
    }
    if (this.closed) return void (await client.end().catch(() => {}));
    this.listener = client;
    this.unwatch = watchSession(client, this.heartbeatMs, () => this.lost(client));
  }

  private lost(client: pg.Client): void {
    if (this.listener !== client || this.closed) return;
    this.listener = null;
    this.unwatch();
    dropSession(client);
    this.logger.warn('the LISTEN connection dropped or stopped answering: reconnecting');
    this.reconnect(RECONNECT_MIN_MS);
  }

  private reconnect(delayMs: number): void {
    this.retry = setTimeout(() => {
      this.listen()
        .then(() => {
          if (this.closed) return;
          this.logger.log('LISTEN re-established: resyncing the match cache and open feeds');
          this.local.resync();
        })
        .catch(() => {
          if (!this.closed) this.reconnect(Math.min(delayMs * 2, RECONNECT_MAX_MS));
        });
    }, delayMs);
    this.retry.unref();
  }
}
