// The MCP bridge's local channel: which window a call goes to (by folder, the agent's working
// folder, the only one), messages split by lines and bounded, secrets compared whole, the
// socket folder the owner's alone, and a real socket that refuses a wrong secret.
import assert from 'node:assert/strict';
import { promises as fsp, mkdtempSync, rmSync, statSync } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { LineReader, MAX_MESSAGE_BYTES, chooseWindow, encode, newSecret, parseEntry, privateSocketDir, readRegistry, sameSecret, socketPath, type WindowEntry } from '../../../src/core/agent/channel';

const w = (name: string, folders: string[]): WindowEntry => ({ socket: `/tmp/${name}.sock`, secret: 's', pid: 1, folders, name });

test('a call goes to the window of its folder, the agent\'s working folder, or the only one; else one sentence', () => {
  const shop = w('shop', ['/work/shop', '/work/libs']);
  const api = w('api', ['/work/api']);
  assert.equal((chooseWindow([shop, api], { folder: 'api' }) as { window: WindowEntry }).window, api, 'by a folder\'s name');
  assert.equal((chooseWindow([shop, api], { folder: '/work/libs/src' }) as { window: WindowEntry }).window, shop, 'by a path inside a folder');
  assert.deepEqual(chooseWindow([shop, api], { cwd: '/work/api/src' }), { window: api, folder: '/work/api' }, 'by the agent\'s working folder, which it acts on');
  assert.match((chooseWindow([api], { cwd: '/work/other-project' }) as { refusal: string }).refusal, /^The agent works in \/work\/other-project, which is not open in any VS Code window with Code Scanner \(open: api\)/, 'not the only window of another project');
  assert.equal((chooseWindow([api], {}) as { window: WindowEntry }).window, api, 'the only window');
  assert.equal((chooseWindow([shop, api], { preferred: api.socket }) as { window: WindowEntry }).window, api, 'the window that started the bridge');
  assert.match((chooseWindow([shop, api], {}) as { refusal: string }).refusal, /^Several VS Code windows .*\(shop, libs; api\): name the folder/);
  assert.match((chooseWindow([shop], { folder: 'billing' }) as { refusal: string }).refusal, /^The folder billing is not open in any VS Code window with Code Scanner \(open: shop, libs\)/);
  assert.match((chooseWindow([shop], { folder: 'src', cwd: '/work/shop' }) as { refusal: string }).refusal, /folder src is not open/, 'a relative name is a folder\'s name, not a path');
  assert.match((chooseWindow([], {}) as { refusal: string }).refusal, /^No VS Code window with Code Scanner is running/);
});

test('messages are lines of JSON; garbage is read as nothing, a line past the bound ends the stream', () => {
  const got: unknown[] = [];
  let tooLong = 0;
  const r = new LineReader((m) => got.push(m), () => tooLong++);
  r.push(encode({ type: 'hello', secret: 'a' }).slice(0, 5));
  r.push(`${encode({ type: 'hello', secret: 'a' }).slice(5)}not json\n\n`);
  assert.deepEqual(got, [{ type: 'hello', secret: 'a' }, undefined]);
  r.push('x'.repeat(MAX_MESSAGE_BYTES + 1));
  assert.equal(tooLong, 1);
});

test('secrets are compared whole; entries are read tolerantly', () => {
  const s = newSecret();
  assert.ok(s.length >= 40);
  assert.ok(sameSecret(s, s));
  assert.ok(!sameSecret(s.slice(0, -1), s));
  assert.ok(!sameSecret(undefined, s));
  assert.equal(parseEntry({ socket: 1 }), undefined);
  assert.deepEqual(parseEntry({ socket: '/s', secret: 'x', pid: 3, folders: ['/a', 4] }), { socket: '/s', secret: 'x', pid: 3, folders: ['/a'], name: 'a VS Code window' });
});

test('the socket\'s folder is the owner\'s alone, and a listener there refuses a wrong secret', { skip: process.platform === 'win32' ? 'named pipes there' : false }, async () => {
  const base = mkdtempSync(path.join(os.tmpdir(), 'channel-'));
  try {
    const dir = await privateSocketDir(base);
    assert.equal(statSync(dir).mode & 0o077, 0);
    await fsp.chmod(dir, 0o755);
    await privateSocketDir(base);
    assert.equal(statSync(dir).mode & 0o077, 0, 'a folder opened up is closed again');
    const secret = newSecret();
    const at = socketPath(dir, 'test');
    const server = net.createServer((s) => {
      const r = new LineReader((m) => {
        const ok = (m as { type?: string }).type === 'hello' && sameSecret((m as { secret?: unknown }).secret, secret);
        s.end(encode(ok ? { type: 'welcome' } : { type: 'refused', why: 'wrong secret' }));
      }, () => s.destroy());
      s.on('data', (d) => r.push(d));
    });
    await new Promise<void>((resolve) => server.listen(at, resolve));
    const ask = (given: string) => new Promise<string>((resolve) => {
      const c = net.connect(at, () => c.write(encode({ type: 'hello', secret: given })));
      let text = '';
      c.on('data', (d) => { text += d.toString(); });
      c.on('close', () => resolve(text));
    });
    assert.match(await ask('wrong'), /"refused"/);
    assert.match(await ask(secret), /"welcome"/);
    await new Promise<void>((resolve) => server.close(() => resolve()));
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});

test('the registry: this user\'s folder and entries only, newest first, gone windows left out', { skip: process.platform === 'win32' ? 'owners and modes are ACLs there' : false }, async () => {
  const registry = await fsp.mkdtemp(path.join(os.tmpdir(), 'registry-'));
  try {
    await fsp.chmod(registry, 0o700);
    const entry = (name: string, pid = process.pid) => JSON.stringify({ socket: `/s/${name}`, secret: 's', pid, folders: ['/w'], name });
    await fsp.writeFile(path.join(registry, 'old.json'), entry('old'));
    await fsp.utimes(path.join(registry, 'old.json'), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    await fsp.writeFile(path.join(registry, 'new.json'), entry('new'));
    await fsp.writeFile(path.join(registry, 'gone.json'), entry('gone', 2 ** 22 + 12345));
    await fsp.writeFile(path.join(os.tmpdir(), 'planted-entry.json'), entry('planted'));
    await fsp.symlink(path.join(os.tmpdir(), 'planted-entry.json'), path.join(registry, 'linked.json'));
    if (process.getuid?.() === 0) {
      await fsp.writeFile(path.join(registry, 'theirs.json'), entry('theirs'));
      await fsp.chown(path.join(registry, 'theirs.json'), 4321, 4321);
    }
    const read = await readRegistry(registry);
    assert.equal(read.unreadable, undefined);
    assert.deepEqual(read.windows.map((w) => w.name), ['new', 'old'], 'newest first; no link, no other owner\'s, no dead process');
    await fsp.chmod(registry, 0o777);
    const open = await readRegistry(registry);
    assert.deepEqual(open.windows, []);
    assert.match(open.unreadable ?? '', /not yours alone/);
  } finally {
    await fsp.rm(registry, { recursive: true, force: true });
    await fsp.rm(path.join(os.tmpdir(), 'planted-entry.json'), { force: true });
  }
});
