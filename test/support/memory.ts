import v8 from 'node:v8';
import vm from 'node:vm';

// The e2e server runs in the test's process: a full collection before each reading leaves only
// what something still holds, so a bound on growth is a bound on what the server kept.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

export interface Memory {
  rss: number;
  heapUsed: number;
}

export async function memoryAfterGc(): Promise<Memory> {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setImmediate(r));
  }
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed };
}

export const MiB = 1024 * 1024;

export function growth(before: Memory, after: Memory): { rssMiB: number; heapMiB: number } {
  return { rssMiB: (after.rss - before.rss) / MiB, heapMiB: (after.heapUsed - before.heapUsed) / MiB };
}
