// Reads a V8 CPU profile (from node:inspector) two ways: as a list of tasks (runs of
// samples with no idle time between them and the same outermost frame), and as what ran
// during a given stretch of time (the longest stall a timer saw). A task "is ours" when any
// of its samples has a frame of the extension's bundle. Slices split by setImmediate can
// still merge into one task (no idle sample between them), so a task's length is an upper
// bound of how long it held the event loop; the stall's own stretch is the exact account.

export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfiledTask { ms: number; ours: boolean; top: string[] }

type Frame = CpuProfile['nodes'][number]['callFrame'];

function indexed(p: CpuProfile) {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // times[i] is when sample i was taken; it stands for the time until sample i + 1.
  const times: number[] = [];
  let t = p.startTime;
  for (const d of p.timeDeltas) times.push((t += d));
  const stack = (id: number) => {
    const out: Frame[] = [];
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) out.push(byId.get(cur)!.callFrame);
    return out;
  };
  const outermost = (id: number) => {
    let prev = id;
    for (let cur: number | undefined = id; cur !== undefined && parent.get(cur) !== undefined; cur = parent.get(cur)) prev = cur;
    return prev;
  };
  return { byId, times, stack, outermost };
}

/** The innermost frame of ours in a sample's stack, or else its leaf (with its file's name). */
function sampleName(frames: Frame[], ourUrl: (url: string) => boolean): string {
  const mine = frames.find((f) => ourUrl(f.url)) ?? frames[0]!;
  return `${mine.functionName || '(anonymous)'}${ourUrl(mine.url) ? '' : ` [${mine.url.split('/').pop() || 'native'}]`}`;
}

const topOf = (self: Map<string, number>, n = 3) =>
  [...self].sort((m, k) => k[1] - m[1]).slice(0, n).map(([k, v]) => `${k} ${v.toFixed(0)} ms`);

export function longTasks(p: CpuProfile, ourUrl: (url: string) => boolean): ProfiledTask[] {
  const { byId, times, stack, outermost } = indexed(p);
  const tasks: { root: number; a: number; b: number; ours: boolean; self: Map<string, number> }[] = [];
  let cur: (typeof tasks)[number] | undefined;
  for (let i = 0; i + 1 < p.samples.length; i++) {
    const id = p.samples[i]!;
    const fn = byId.get(id)!.callFrame.functionName;
    if (fn === '(idle)' || fn === '(program)') { cur = undefined; continue; }
    const root = outermost(id);
    if (!cur || cur.root !== root) tasks.push((cur = { root, a: i, b: i, ours: false, self: new Map() }));
    cur.b = i + 1;
    const frames = stack(id);
    if (frames.some((f) => ourUrl(f.url))) cur.ours = true;
    const name = sampleName(frames, ourUrl);
    cur.self.set(name, (cur.self.get(name) ?? 0) + (times[i + 1]! - times[i]!) / 1000);
  }
  return tasks
    .map((x) => ({ ms: (times[x.b]! - times[x.a]!) / 1000, ours: x.ours, top: topOf(x.self) }))
    .sort((x, y) => y.ms - x.ms);
}

/**
 * What ran between two instants on the profile's clock (microseconds of the monotonic
 * clock, as `process.hrtime` counts them): the biggest shares, idle time left out.
 */
export function ranBetween(p: CpuProfile, fromUs: number, toUs: number, ourUrl: (url: string) => boolean, n = 4): string[] {
  const { byId, times, stack } = indexed(p);
  const self = new Map<string, number>();
  for (let i = 0; i + 1 < p.samples.length; i++) {
    const a = Math.max(times[i]!, fromUs);
    const b = Math.min(times[i + 1]!, toUs);
    if (b <= a) continue;
    const id = p.samples[i]!;
    if (byId.get(id)!.callFrame.functionName === '(idle)') continue;
    const frames = stack(id);
    let name = sampleName(frames, ourUrl);
    // What our function was calling (VS Code's API code, say) when it is not ours.
    const leaf = frames[0]!;
    if (frames.some((f) => ourUrl(f.url)) && !ourUrl(leaf.url)) name += ` > ${leaf.functionName || '(anonymous)'} [${leaf.url.split('/').pop() || 'native'}]`;
    self.set(name, (self.get(name) ?? 0) + (b - a) / 1000);
  }
  return topOf(self, n);
}

/** CPU time of this thread, or of the process where Node cannot tell a thread's (before 23.9). */
export function threadCpuUs(): number {
  const p = process as unknown as { threadCpuUsage?: () => NodeJS.CpuUsage };
  const u = p.threadCpuUsage ? p.threadCpuUsage() : process.cpuUsage();
  return u.user + u.system;
}

/**
 * The longest stretches a 1 ms timer could not run (the event loop was held), with when
 * they were on the monotonic clock, so a profile can say what held it, and how much of it
 * the thread ran: on a loaded machine a thread that is runnable but not running holds the
 * event loop as surely as one that computes, and only the CPU time tells them apart.
 */
export function stallRecorder(count = 3) {
  type Stall = { ms: number; cpuMs: number; fromUs: number; toUs: number };
  const worst: Stall[] = [];
  // The same stretches ranked by the thread's own CPU time: what the host computed at a stretch.
  const busiest: Stall[] = [];
  const keep = (list: Stall[], s: Stall, key: (x: Stall) => number) => {
    if (list.length < count || key(s) > key(list[list.length - 1]!)) {
      list.push(s);
      list.sort((x, y) => key(y) - key(x));
      list.length = Math.min(list.length, count);
    }
  };
  const nowUs = () => Number(process.hrtime.bigint() / 1000n);
  let last = nowUs();
  let lastCpu = threadCpuUs();
  const timer = setInterval(() => {
    const now = nowUs();
    const cpu = threadCpuUs();
    // The timer's own millisecond is not a stall.
    const s = { ms: (now - last) / 1000 - 1, cpuMs: (cpu - lastCpu) / 1000, fromUs: last, toUs: now };
    keep(worst, s, (x) => x.ms);
    keep(busiest, s, (x) => x.cpuMs);
    last = now;
    lastCpu = cpu;
  }, 1);
  return { worst, busiest, stop: () => clearInterval(timer) };
}

/** Whose code a profile's samples ran: ours, another extension's, or VS Code's and Node's own. */
export interface Owners { ours: number; extensions: number; vscode: number }

/** A URL of an extension's file: under an extensions folder (built-in or installed). */
const extensionFile = (url: string) => /[\\/]extensions[\\/][^\\/]+[\\/]/.test(url);

/**
 * The milliseconds of samples between two instants on the profile's clock, by owner: a sample
 * with a frame of ours on its stack is ours (Node compiling our bundle as our loader requires
 * it is ours too), else one with a frame of another extension is that extension's, else the
 * editor's. Idle time is left out, so the three add up to what ran.
 */
export function ownersBetween(p: CpuProfile, fromUs: number, toUs: number, ourUrl: (url: string) => boolean): Owners {
  const { byId, times, stack } = indexed(p);
  const owners: Owners = { ours: 0, extensions: 0, vscode: 0 };
  for (let i = 0; i + 1 < p.samples.length; i++) {
    const a = Math.max(times[i]!, fromUs);
    const b = Math.min(times[i + 1]!, toUs);
    if (b <= a) continue;
    const id = p.samples[i]!;
    const fn = byId.get(id)!.callFrame.functionName;
    if (fn === '(idle)') continue;
    const frames = stack(id);
    const owner = frames.some((f) => ourUrl(f.url)) ? 'ours' : frames.some((f) => extensionFile(f.url)) ? 'extensions' : 'vscode';
    owners[owner] += (b - a) / 1000;
  }
  return { ours: Math.round(owners.ours), extensions: Math.round(owners.extensions), vscode: Math.round(owners.vscode) };
}
