import { spawn, type ChildProcess } from 'node:child_process';

/** The server as deployed, `node dist/src/main.js`, in a child process the test can kill. */
export interface ServerChild {
  child: ChildProcess;
  /** Everything it printed, stdout and stderr interleaved. */
  output(): string;
  /** Resolves with the exit code (or the signal's name) once it has exited. */
  exited: Promise<number | string>;
  kill(signal: NodeJS.Signals): Promise<number | string>;
}

export interface ListeningServer extends ServerChild {
  url: string;
}

/**
 * Starts the server with `env` on top of a quiet base (no inherited DATABASE_URL). `group`: in a
 * process group of its own, which a test can signal as a whole (`process.kill(-pid)`), as a
 * terminal's Ctrl-C or systemd does.
 */
export function spawnServer(env: Record<string, string>, options: { group?: boolean } = {}): ServerChild {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !['DATABASE_URL', 'DATA_DIR', 'PUBSUB', 'NODE_OPTIONS'].includes(k)));
  const child = spawn(process.execPath, ['dist/src/main.js'], {
    env: { ...base, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.group ?? false,
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  return {
    child,
    output: () => out,
    exited,
    kill: (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Starts the server and resolves once it listens; rejects with its output if it exits first. */
export async function startServerChild(env: Record<string, string>, timeoutMs = 60_000, options: { group?: boolean } = {}): Promise<ListeningServer> {
  const s = spawnServer(env, options);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const m = /listening on (http:\/\/[\d.]+:\d+)\/graphql/.exec(s.output());
    if (m) return { ...s, url: m[1] };
    if (s.child.exitCode !== null || s.child.signalCode !== null || Date.now() > deadline) {
      await s.kill('SIGKILL');
      throw new Error(`the server did not start: ${s.output()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
