// Reads a V8 CPU profile (from node:inspector) as a list of tasks: runs of samples with no
// idle time between them and the same outermost frame. A task "is ours" when any of its
// samples has a frame of the extension's bundle. Slices split by setImmediate can still
// merge into one task here (no idle sample between them), so a task's length is an upper
// bound of how long it held the event loop.

export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfiledTask { ms: number; ours: boolean; top: string[] }

export function longTasks(p: CpuProfile, ourUrl: (url: string) => boolean): ProfiledTask[] {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const times: number[] = [];
  let t = p.startTime;
  for (const d of p.timeDeltas) times.push((t += d));
  const outermost = (id: number) => {
    let prev = id;
    for (let cur: number | undefined = id; cur !== undefined && parent.get(cur) !== undefined; cur = parent.get(cur)) prev = cur;
    return prev;
  };
  const stack = (id: number) => {
    const out: typeof p.nodes[number]['callFrame'][] = [];
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) out.push(byId.get(cur)!.callFrame);
    return out;
  };
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
    const mine = frames.find((f) => ourUrl(f.url)) ?? frames[0]!;
    const name = `${mine.functionName || '(anonymous)'}${ourUrl(mine.url) ? '' : ` [${mine.url.split('/').pop() || 'native'}]`}`;
    cur.self.set(name, (cur.self.get(name) ?? 0) + (times[i + 1]! - times[i]!) / 1000);
  }
  return tasks
    .map((x) => ({ ms: (times[x.b]! - times[x.a]!) / 1000, ours: x.ours, top: [...x.self].sort((m, n) => n[1] - m[1]).slice(0, 3).map(([k, v]) => `${k} ${v.toFixed(0)} ms`) }))
    .sort((x, y) => y.ms - x.ms);
}
