/**
 * Where a move iteration's server CPU goes, against a floor iteration's: reads a V8 CPU profile
 * of the server taken during bench:moves
 * (BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" BENCH_CLIENTS=8 npm run bench:moves)
 * and prints, for the move slices and the floor slices apart, the share of the samples in each
 * package and in each of this project's modules.
 *
 * The profile covers the whole run, and a bench:moves run alternates move slices and floor
 * slices, so the samples are cut into windows of WINDOW_MS: a window whose stacks show a move's
 * own code (the commit, the views) and not the floor's resolver is a move window, and the other
 * way round; windows with both (a slice boundary) or neither (warm-up setup, idle) are left out.
 * Shares are of the samples that were not idle.
 *
 *   npm run profile:split -- /tmp/prof/CPU.….cpuprofile
 */
import { readFileSync } from 'node:fs';

const WINDOW_MS = 200;
/** Code only a move runs, and code only the floor runs (matched against a stack's script URLs). */
const MOVE_MARKERS = ['/src/matches/commit-statement.', '/src/matches/match-view.'];
const FLOOR_MARKERS = ['/src/bench-floor/'];
/** Samples a window needs of its side's code to count. */
const MIN_MARKED = 3;

interface CallFrame {
  functionName: string;
  url: string;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

type Side = 'move' | 'floor';

/** The package a frame belongs to, or this project's module (`ours src/matches`), or what V8 calls it. */
function groupOf(frame: CallFrame): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(frame.url);
  if (pkg) return pkg[1];
  const ours = /\/dist\/(src\/[^/]+)/.exec(frame.url);
  if (ours) return `ours ${ours[1]}`;
  if (frame.url.startsWith('node:')) return `node:${frame.url.slice(5).split('/')[0]}`;
  // V8's own entries already read "(idle)", "(garbage collector)", "(program)"…
  if (frame.functionName.startsWith('(')) return frame.functionName;
  return frame.functionName ? `(${frame.functionName})` : '(native)';
}

function main(file: string | undefined): void {
  if (!file) throw new Error('usage: npm run profile:split -- <file.cpuprofile>');
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);

  const sideMarks = new Map<number, { move: boolean; floor: boolean }>();
  const marksOf = (id: number) => {
    let marks = sideMarks.get(id);
    if (marks) return marks;
    marks = { move: false, floor: false };
    for (let cur: number | undefined = id; cur !== undefined; cur = parentOf.get(cur)) {
      const url = nodes.get(cur)!.callFrame.url;
      if (MOVE_MARKERS.some((m) => url.includes(m))) marks.move = true;
      if (FLOOR_MARKERS.some((m) => url.includes(m))) marks.floor = true;
    }
    sideMarks.set(id, marks);
    return marks;
  };

  // Cut into windows, each with its samples and how many carried each side's marks.
  const windows = new Map<number, { move: number; floor: number; samples: [number, number][] }>();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    const key = Math.floor(at / (WINDOW_MS * 1000));
    let w = windows.get(key);
    if (!w) windows.set(key, (w = { move: 0, floor: 0, samples: [] }));
    w.samples.push([id, delta]);
    const marks = marksOf(id);
    if (marks.move) w.move++;
    if (marks.floor) w.floor++;
  });

  const byGroup: Record<Side, Map<string, number>> = { move: new Map(), floor: new Map() };
  const busy: Record<Side, number> = { move: 0, floor: 0 };
  const counted: Record<Side, number> = { move: 0, floor: 0 };
  for (const w of windows.values()) {
    const side: Side | null = w.move >= MIN_MARKED && w.floor === 0 ? 'move' : w.floor >= MIN_MARKED && w.move === 0 ? 'floor' : null;
    if (!side) continue;
    counted[side]++;
    for (const [id, delta] of w.samples) {
      const group = groupOf(nodes.get(id)!.callFrame);
      if (group === '(idle)') continue;
      busy[side] += delta;
      byGroup[side].set(group, (byGroup[side].get(group) ?? 0) + delta);
    }
  }
  if (counted.move === 0 || counted.floor === 0) throw new Error('no move or no floor windows: is this a bench:moves server profile?');

  const share = (side: Side, group: string) => (100 * (byGroup[side].get(group) ?? 0)) / busy[side];
  const groups = [...new Set([...byGroup.move.keys(), ...byGroup.floor.keys()])];
  groups.sort((a, b) => share('move', b) - share('move', a));
  console.log(`${counted.move} move windows, ${counted.floor} floor windows of ${WINDOW_MS} ms; % of each side's samples that were not idle`);
  console.log('   move  floor  group');
  for (const g of groups.filter((x) => share('move', x) >= 0.5 || share('floor', x) >= 0.5))
    console.log(`${share('move', g).toFixed(1).padStart(7)} ${share('floor', g).toFixed(1).padStart(6)}  ${g}`);
  const ours = (side: Side) => groups.filter((g) => g.startsWith('ours ') && !g.includes('bench-floor')).reduce((a, g) => a + share(side, g), 0);
  console.log(
    `this project's code (the floor's resolver aside): ${ours('move').toFixed(1)} % of a move window, ${ours('floor').toFixed(1)} % of a floor window`,
  );
}

main(process.argv[2]);
