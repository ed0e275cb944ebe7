/**
 * A reader of the Prometheus text format (what GET /metrics serves), enough for the benchmarks
 * and tests: every sample line as name, labels, value. Comments (# HELP, # TYPE) are skipped.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parsePrometheus(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const m = LINE.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const [, key, raw] of (m[2] ?? '').matchAll(LABEL)) labels[key] = raw.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return samples;
}

/** The sum of the samples named `name` whose labels include `labels` (0 when there are none). */
export function sum(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const s of samples) if (s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)) total += s.value;
  return total;
}
