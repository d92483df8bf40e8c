// `npm run service`: prints base_url/admin/token on lines of their own, serves the API
// with that token, keeps its data directory, and exits 0 on SIGTERM and SIGINT.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const root = join(__dirname, '..', '..', '..');

function runCli(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', join('test', 'service', 'cli.ts'), ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => { out += d; });
  child.stderr.on('data', (d) => { out += d; });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let settled = false;
  const ready = new Promise<Record<string, string>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner within 60 s:\n${out}`)), 60_000);
    child.stdout.on('data', () => {
      const found: Record<string, string> = {};
      for (const m of out.matchAll(/^(base_url|admin|token|data_dir): (\S+)$/gm)) found[m[1]] = m[2];
      if (!settled && found.base_url && found.admin && found.token) { settled = true; clearTimeout(timer); resolve(found); }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      if (!settled) { settled = true; reject(new Error(`exited early (${code}):\n${out}`)); }
    });
  });
  ready.catch(() => undefined);
  return { child, ready, exited, output: () => out };
}

describe('reference service command line', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`prints its banner, serves the demo token and stops on ${signal}`, async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'svc-cli-test-'));
      const cli = runCli(['--port', '0', '--data-dir', dataDir, '--scan-duration-ms', '10']);
      try {
        const banner = await cli.ready;
        assert.match(banner.base_url, /^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
        assert.match(banner.admin, new RegExp(`^${new URL(banner.base_url).origin}/__admin/[A-Za-z0-9_-]{20,}$`));
        assert.equal((await fetch(`${new URL(banner.base_url).origin}/__admin/scans`)).status, 403, 'no admin without the printed secret');
        assert.equal(banner.data_dir, dataDir);
        const res = await fetch(`${banner.base_url}/verify?user_info=true`, { headers: { 'SERVICE-TOKEN': banner.token } });
        assert.equal(res.status, 200);
        assert.equal(((await res.json()) as { user: { name: string } }).user.name, 'Dana Demo');
        const scans = await fetch(`${banner.admin}/scans`);
        assert.deepEqual(await scans.json(), []);
        cli.child.kill(signal);
        assert.equal(await cli.exited, 0, cli.output());
        assert.ok(existsSync(join(dataDir, 'transfers')));
      } finally {
        cli.child.kill('SIGKILL');
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }

  it('refuses a bad option value with exit code 2', async () => {
    const cli = runCli(['--port', 'eighty']);
    assert.equal(await cli.exited, 2);
    assert.match(cli.output(), /--port must be a non-negative integer/);
  });
});
