// A smaller share of the CPU for a process tree that runs beside the one the run waits for.
// Niceness does not hold for a browser: Chromium sets its own processes' priorities (its
// renderers back to 0, its browser and GPU processes to -8), so a niced launcher's windows
// competed with the main window as equals. A CPU cgroup is kept by every process started in
// it, whatever priority it sets itself. Linux only, and only where this user may make one
// (root, or a delegated cgroup); elsewhere the tree runs at the usual share.
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

const PREFIX = 'code-scanner-';

/**
 * Moves `pid` (before it starts children) into a new CPU cgroup weighted `fraction` of the
 * default; returns a function that removes the cgroup once its processes are gone, or
 * undefined when no cgroup could be made.
 */
export function lowerCpuShare(pid, fraction, name = `${PREFIX}${process.pid}-${pid}`) {
  for (const place of [cgroupV2, cgroupV1]) {
    const dir = place(name);
    if (!dir) continue;
    try {
      mkdirSync(dir.path);
    } catch {
      continue;
    }
    try {
      writeFileSync(join(dir.path, dir.file), String(dir.value(fraction)));
      writeFileSync(join(dir.path, 'cgroup.procs'), String(pid));
      return () => { try { rmdirSync(dir.path); } catch { /* processes left: the system removes nothing, a later run's name differs */ } };
    } catch {
      try { rmdirSync(dir.path); } catch { /* as above */ }
    }
  }
  return undefined;
}

/** Whether this process runs in a CPU cgroup that lowerCpuShare made: behind the run's main work already. */
export function inLoweredShare() {
  let lines;
  try {
    lines = readFileSync('/proc/self/cgroup', 'utf8').split('\n');
  } catch {
    return false;
  }
  // `id:controllers:path`; the unified hierarchy's has no controllers.
  return lines.some((l) => {
    const [, controllers, path] = l.split(':');
    return path !== undefined && (controllers === '' || controllers.split(',').includes('cpu')) && basename(path).startsWith(PREFIX);
  });
}

/** The unified hierarchy, where this process's own cgroup delegates the cpu controller. */
function cgroupV2(name) {
  const root = '/sys/fs/cgroup';
  if (!existsSync(join(root, 'cgroup.controllers'))) return undefined;
  const own = readFileSync('/proc/self/cgroup', 'utf8').match(/^0::(.*)$/m)?.[1];
  if (own === undefined) return undefined;
  // A sibling of our own cgroup (at the top, a child of the root), weighed against ours.
  const parent = own === '/' ? root : join(root, own, '..');
  if (!readFileSync(join(parent, 'cgroup.subtree_control'), 'utf8').split(/\s+/).includes('cpu')) return undefined;
  return { path: join(parent, name), file: 'cpu.weight', value: (f) => Math.max(1, Math.round(100 * f)) };
}

/** The cpu controller's own hierarchy (cgroup v1), at its top. */
function cgroupV1(name) {
  const root = '/sys/fs/cgroup/cpu';
  if (!existsSync(join(root, 'cpu.shares'))) return undefined;
  return { path: join(root, name), file: 'cpu.shares', value: (f) => Math.max(2, Math.round(1024 * f)) };
}
