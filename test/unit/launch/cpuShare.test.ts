// The test launchers put what runs beside the main window (the short windows) in a CPU cgroup
// of a small share, which every process started in it keeps, whatever priority it sets itself.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';

const cpuShare = pathToFileURL(path.resolve(__dirname, '../../launch/cpuShare.mjs')).href;

/** Where this user may make a CPU cgroup: root, with the cpu controller mounted (as on the CI machine). */
const allowed = process.platform === 'linux' && process.getuid?.() === 0
  && (existsSync('/sys/fs/cgroup/cpu/cpu.shares') || /\bcpu\b/.test(existsSync('/sys/fs/cgroup/cgroup.subtree_control') ? readFileSync('/sys/fs/cgroup/cgroup.subtree_control', 'utf8') : ''));

test('a process moved into a lowered share, and the process it starts, run there at that weight; the cgroup goes once they end', { skip: !allowed && 'no CPU cgroup can be made here (not root, or no cpu controller)' }, async () => {
  const { lowerCpuShare, inLoweredShare } = await import(cpuShare);
  assert.equal(inLoweredShare(), false, 'this process is not in one');
  // The child waits for its move, then starts a grandchild and reports what both see.
  const script = `
    const m = await import(${JSON.stringify(cpuShare)});
    await new Promise((r) => process.stdin.once('data', r));
    const { execFileSync } = await import('node:child_process');
    const grandchild = execFileSync(process.execPath, ['--input-type=module', '-e', 'const m = await import(${JSON.stringify(JSON.stringify(cpuShare)).slice(1, -1)}); console.log(m.inLoweredShare())'], { encoding: 'utf8' }).trim();
    const fs = await import('node:fs');
    console.log(JSON.stringify({ child: m.inLoweredShare(), grandchild, cgroup: fs.readFileSync('/proc/self/cgroup', 'utf8') }));
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  const release = lowerCpuShare(child.pid, 0.25);
  assert.ok(release, 'the cgroup was made');
  let out = '';
  child.stdout.on('data', (d) => { out += d; });
  child.stdin.end('go\n');
  await new Promise((r) => child.once('exit', r));
  const seen = JSON.parse(out) as { child: boolean; grandchild: string; cgroup: string };
  assert.equal(seen.child, true);
  assert.equal(seen.grandchild, 'true', 'the process it started is there too');
  const line = seen.cgroup.split('\n').find((l) => /^\d+:(cpu[,:]|[^:]*,cpu[,:]|:)/.test(l) && l.includes('/code-scanner-'))!;
  const rel = line.split(':')[2]!;
  const v1 = existsSync('/sys/fs/cgroup/cpu/cpu.shares');
  const dir = v1 ? path.join('/sys/fs/cgroup/cpu', rel) : path.join('/sys/fs/cgroup', rel);
  assert.equal(readFileSync(path.join(dir, v1 ? 'cpu.shares' : 'cpu.weight'), 'utf8').trim(), v1 ? '256' : '25', 'a quarter of the default weight');
  release();
  assert.equal(existsSync(dir), false, 'the cgroup is removed');
});
