import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StartupRefusal } from '../common/start-failure.js';
import { claimDataDir } from './data-dir-lock.js';

describe('claimDataDir', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dominoes-lock-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('claims a free folder with this process id and releases it', async () => {
    const lock = join(dir, 'server.pid');
    const release = await claimDataDir(lock, dir);
    expect((await readFile(lock, 'utf8')).trim()).toBe(String(process.pid));
    await release();
    expect(existsSync(lock)).toBe(false);
  });

  it('takes over the claim of a process that is gone', async () => {
    const lock = join(dir, 'server.pid');
    const gone = spawn(process.execPath, ['-e', '0']);
    await new Promise((r) => gone.once('exit', r));
    await writeFile(lock, `${gone.pid}\n`);
    const release = await claimDataDir(lock, dir);
    expect((await readFile(lock, 'utf8')).trim()).toBe(String(process.pid));
    await release();
  });

  it('refuses a folder a live server holds, naming the folder, the process and DATA_DIR', async () => {
    const lock = join(dir, 'server.pid');
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      await writeFile(lock, `${live.pid}\n`);
      const refusal = await claimDataDir(lock, dir).catch((e: unknown) => e);
      expect(refusal).toBeInstanceOf(StartupRefusal);
      expect((refusal as Error).message).toEqual(expect.stringContaining(dir));
      expect((refusal as Error).message).toEqual(expect.stringContaining(`process ${live.pid}`));
      expect((refusal as Error).message).toEqual(expect.stringContaining('DATA_DIR'));
    } finally {
      live.kill('SIGKILL');
    }
  });
});
