/**
 * PostgreSQL's side of a benchmark's CPU: the user + system time of the backends serving the
 * benchmark's database, read from /proc, so a phase can be charged with the database work it
 * caused as well as with the server's. Works where the database runs on this machine (the embedded
 * one always does). Background processes (WAL writer, checkpointer, autovacuum) are left out.
 */
import { readFile } from 'node:fs/promises';
import pg from 'pg';

/** Linux reports process times in clock ticks of 1/100 s (USER_HZ). */
const TICKS_PER_SECOND = 100;

/** CPU seconds so far per backend process id. */
export type BackendTimes = Map<number, number>;

export interface BackendsCpu {
  /** the backends' CPU seconds so far; empty where /proc or the backends cannot be read */
  read(): Promise<BackendTimes>;
  close(): Promise<void>;
}

/**
 * The CPU seconds the backends spent between two readings, or null when none could be read (a
 * database on another machine). A backend that started in between counts from zero.
 */
export function spentBetween(before: BackendTimes, after: BackendTimes): number | null {
  if (after.size === 0) return null;
  let total = 0;
  for (const [pid, seconds] of after) total += seconds - (before.get(pid) ?? 0);
  return total;
}

async function cpuSecondsOf(pid: number): Promise<number | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return null; // gone since it was listed, or not on this machine
  }
}

export async function backendsCpu(dbUrl: string): Promise<BackendsCpu> {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  return {
    async read() {
      const { rows } = await client.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()`,
      );
      const times: BackendTimes = new Map();
      for (const { pid } of rows) {
        const seconds = await cpuSecondsOf(pid);
        if (seconds !== null) times.set(pid, seconds);
      }
      return times;
    },
    close: () => client.end(),
  };
}
