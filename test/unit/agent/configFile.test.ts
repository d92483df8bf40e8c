// An agent's configuration file is the person's: edited where a link points (the link
// stays), read again when written (what changed meanwhile is kept), never replaced when it
// cannot be read.
import assert from 'node:assert/strict';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { editConfig, readIfThere } from '../../../src/core/agent/configFile';
import { entryIn, mcpEntry, withEntry } from '../../../src/core/agent/agentConfig';

const entry = mcpEntry('/b.js', { nodeOnPath: '/usr/bin/node' });

test('a linked configuration is edited where it points; the link stays a link', async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'config-'));
  try {
    const real = path.join(home, 'dotfiles', 'claude.json');
    mkdirSync(path.dirname(real));
    writeFileSync(real, '{ "numStartups": 3 }\n');
    const link = path.join(home, '.claude.json');
    symlinkSync(real, link);
    await editConfig(link, (t) => withEntry(t, entry));
    assert.ok(lstatSync(link).isSymbolicLink());
    assert.equal(readlinkSync(link), real);
    assert.ok(entryIn(readFileSync(real, 'utf8')));
    assert.match(readFileSync(real, 'utf8'), /"numStartups": 3/);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test('what the agent wrote while the person was asked is kept: the edit is made to the file as it is when written', async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'config-'));
  try {
    const file = path.join(home, 'mcp.json');
    writeFileSync(file, '{\n  "a": 1\n}\n');
    const asked = await readIfThere(file);
    writeFileSync(file, '{\n  "a": 1,\n  "written": "meanwhile"\n}\n');
    await editConfig(file, (t) => withEntry(t, entry));
    const now = readFileSync(file, 'utf8');
    assert.notEqual(now, withEntry(asked, entry));
    assert.match(now, /"written": "meanwhile"/);
    assert.ok(entryIn(now));
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test('a configuration that cannot be read is not replaced', async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'config-'));
  try {
    const file = path.join(home, '.claude.json');
    mkdirSync(file);
    await assert.rejects(readIfThere(file), /EISDIR/);
    await assert.rejects(editConfig(file, (t) => withEntry(t, entry)), /EISDIR/);
    assert.ok(lstatSync(file).isDirectory(), 'left as it was');
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
