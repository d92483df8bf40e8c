// Ctrl+C in `npm run demo` (and the test launchers): one "stopping" line, however often it
// is pressed while the clean-up runs, and the clean-up still runs to its end.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';

const harness = pathToFileURL(path.resolve(__dirname, '../../launch/harness.mjs')).href;

test('two Ctrl+C while stopping: one line, one clean-up, exit code 130', async () => {
  const script = `
    const h = await import(${JSON.stringify(harness)});
    h.installSignalHandlers();
    h.onCleanup(async () => { await new Promise((r) => setTimeout(r, 400)); console.log('cleaned'); });
    console.log('ready');
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => { out += d; });
  child.stderr.on('data', (d) => { out += d; });
  await new Promise<void>((resolve, reject) => {
    const t = setInterval(() => { if (out.includes('ready')) { clearInterval(t); resolve(); } }, 20);
    child.once('exit', () => { clearInterval(t); reject(new Error(`exited early: ${out}`)); });
  });
  child.kill('SIGINT');
  await new Promise((r) => setTimeout(r, 100));
  child.kill('SIGINT');
  const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
  assert.equal(code, 130);
  assert.equal(out.match(/stopping/g)?.length, 1, out);
  assert.equal(out.match(/cleaned/g)?.length, 1, out);
});
