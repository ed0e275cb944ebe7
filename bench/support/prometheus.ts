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

/**
 * The q-quantile (0..1) of a histogram over the observations made between two scrapes: the upper
 * bound of the bucket the rank falls in (a conservative reading; Infinity past the last bucket).
 */
export function quantileBetween(before: Sample[], after: Sample[], name: string, q: number, labels: Record<string, string> = {}): number {
  const buckets = (s: Sample[]) =>
    s
      .filter((x) => x.name === `${name}_bucket` && Object.entries(labels).every(([k, v]) => x.labels[k] === v))
      .map((x) => ({ le: x.labels.le === '+Inf' ? Infinity : Number(x.labels.le), n: x.value }));
  const start = new Map(buckets(before).map((b) => [b.le, b.n]));
  const diff = buckets(after)
    .map((b) => ({ le: b.le, n: b.n - (start.get(b.le) ?? 0) }))
    .sort((a, b) => a.le - b.le);
  const total = diff.at(-1)?.n ?? 0;
  if (total === 0) return NaN;
  return diff.find((b) => b.n >= q * total)!.le;
}

/** A figure's growth between two scrapes (a counter, or a histogram's _sum / _count). */
export function growth(before: Sample[], after: Sample[], name: string, labels: Record<string, string> = {}): number {
  return sum(after, name, labels) - sum(before, name, labels);
}
