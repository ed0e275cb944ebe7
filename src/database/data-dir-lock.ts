import { readFileSync } from 'node:fs';
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { StartupRefusal } from '../common/start-failure.js';

/**
 * Claims a data folder for this process with a pid file created exclusively, so two servers never
 * run one embedded PostgreSQL. A pid file whose process is gone (a crash, a SIGKILL) is stale and
 * is taken over. Returns the release (remove the file), for a clean shutdown.
 */
export async function claimDataDir(lockFile: string, folder: string): Promise<() => Promise<void>> {
  await mkdir(dirname(lockFile), { recursive: true });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(lockFile, 'wx');
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      return () => rm(lockFile, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const owner = Number.parseInt(await readFile(lockFile, 'utf8').catch(() => ''), 10);
    if (owner !== process.pid && isServerProcess(owner)) {
      throw new StartupRefusal(
        `the data folder ${folder} is in use by another server (process ${owner}): stop it, or set DATA_DIR to another folder for this one`,
      );
    }
    await rm(lockFile, { force: true }); // stale: its owner died without cleaning up
  }
  throw new StartupRefusal(`could not claim the data folder ${folder} (another server is starting on it?): retry, or set DATA_DIR`);
}

/**
 * Stops a PostgreSQL that a dead server left running on this data folder (its `postmaster.pid`
 * names a live process). Only called once this process holds the folder's lock, so whatever
 * postgres runs there belongs to nobody. A fast shutdown (SIGINT) first; an immediate one
 * (SIGQUIT, crash recovery on the next start) if it lingers.
 */
export async function stopLeftoverPostgres(pgDataDir: string, log: (line: string) => void = () => {}): Promise<void> {
  const pid = postmasterPid(pgDataDir);
  if (pid === null || !isAlive(pid) || !looksLikePostgres(pid)) return;
  log(`stopping the PostgreSQL (process ${pid}) a previous server left running on ${pgDataDir}`);
  for (const [signal, waitMs] of [
    ['SIGINT', 15_000],
    ['SIGQUIT', 10_000],
  ] as const) {
    try {
      process.kill(pid, signal);
    } catch {
      return; // gone already
    }
    for (const deadline = Date.now() + waitMs; Date.now() < deadline; await sleep(50)) if (!isAlive(pid)) return;
  }
  throw new StartupRefusal(`the PostgreSQL left running on ${pgDataDir} (process ${pid}) did not stop: stop it, or set DATA_DIR to another folder`);
}

/** The postmaster's pid from the first line of `postmaster.pid`, or null when there is none. */
function postmasterPid(pgDataDir: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(`${pgDataDir}/postmaster.pid`, 'utf8').split('\n')[0], 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'; // alive, owned by another user
  }
}

/** Where /proc tells (Linux), the process's command line; elsewhere null (unknown). */
function commandLine(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return null;
  }
}

/** Alive, and (where it can be told) a Node.js process: a recycled pid must not block a start. */
function isServerProcess(pid: number): boolean {
  if (!isAlive(pid)) return false;
  const cmd = commandLine(pid);
  return cmd === null || /node/i.test(cmd);
}

function looksLikePostgres(pid: number): boolean {
  const cmd = commandLine(pid);
  return cmd === null || /postgres/i.test(cmd);
}
