// An agent's MCP configuration: Code Scanner's entry added beside what is there, taken out
// leaving the rest as it was; a file that is not a JSON object is refused, not overwritten;
// the entry holds nothing secret.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ENTRY_NAME, agentConfigs, entryIn, mcpEntry, nodeOnPath, replacesBridge, runsBridge, sharedMcpHome, withEntry } from '../../../src/core/agent/agentConfig';

test('the entry is added beside the other servers and settings, and taken out again', () => {
  const entry = mcpEntry('/home/u/.storage/mcp/code-scanner-mcp.js', { nodeOnPath: '/usr/bin/node' });
  assert.deepEqual(entry, { type: 'stdio', command: '/usr/bin/node', args: ['/home/u/.storage/mcp/code-scanner-mcp.js'] });
  const before = JSON.stringify({ theme: 'dark', mcpServers: { other: { command: 'x' } } });
  const added = withEntry(before, entry);
  assert.ok(runsBridge(entryIn(added), '/home/u/.storage/mcp/code-scanner-mcp.js'));
  assert.deepEqual(JSON.parse(added), { theme: 'dark', mcpServers: { other: { command: 'x' }, [ENTRY_NAME]: entry } });
  assert.deepEqual(JSON.parse(withEntry(added, undefined)), JSON.parse(before));
  assert.deepEqual(JSON.parse(withEntry(undefined, entry)), { mcpServers: { [ENTRY_NAME]: entry } }, 'a file not there yet');
  assert.throws(() => withEntry('[1, 2]', entry), /not hold a JSON object/);
  assert.throws(() => withEntry('{ broken', entry));
  assert.equal(entryIn('{ broken'), undefined);
});

test('without Node on the PATH the editor\'s runtime runs the bridge as Node; the entry never holds a key', () => {
  const entry = mcpEntry('/b.js', { runtime: '/opt/editor/editor' });
  assert.deepEqual(entry, { type: 'stdio', command: '/opt/editor/editor', args: ['/b.js'], env: { ELECTRON_RUN_AS_NODE: '1' } });
  assert.equal(nodeOnPath(['/nowhere', '/usr/local/bin'].join(process.platform === 'win32' ? ';' : ':'), (p) => p.startsWith('/usr/local/bin')), process.platform === 'win32' ? undefined : '/usr/local/bin/node');
  assert.equal(nodeOnPath('relative/bin', () => true), undefined, 'a relative PATH entry is not trusted');
});

test('the agents and where they keep their servers', () => {
  const c = agentConfigs('/home/u');
  assert.deepEqual(c.map((x) => [x.kind, x.file]), [
    ['claude', '/home/u/.claude.json'], ['cursor', '/home/u/.cursor/mcp.json'], ['windsurf', '/home/u/.codeium/windsurf/mcp_config.json'], ['other', undefined],
  ]);
});

test('a file with comments, its own indentation and CRLF line ends: only the entry\'s lines change', () => {
  const before = '// Cursor\'s servers\r\n{\r\n    "mcpServers": {\r\n        /* ours below */\r\n        "other": { "command": "x" }, // keep\r\n    },\r\n}\r\n';
  const entry = mcpEntry('/b.js', { nodeOnPath: '/usr/bin/node' });
  const added = withEntry(before, entry);
  for (const kept of ['// Cursor\'s servers\r\n', '/* ours below */', '"other": { "command": "x" }, // keep']) assert.ok(added.includes(kept), kept);
  assert.match(added, /\r\n {8}"code-scanner": \{\r\n {12}"type": "stdio"/, 'its indentation and line ends');
  assert.ok(runsBridge(entryIn(added), '/b.js'));
  assert.equal(withEntry(added, undefined), before, 'taken out again: the file as it was, byte for byte');
  const last = '{\n  "mcpServers": {\n    "o": 1,\n    "code-scanner": { "command": "n" }\n  }\n}\n';
  assert.equal(withEntry(last, undefined), '{\n  "mcpServers": {\n    "o": 1\n  }\n}\n', 'last among the servers: the comma before it goes too');
  assert.equal(withEntry(before, undefined), before, 'nothing to take out: the file as it was');
  assert.throws(() => withEntry('{ "mcpServers": [] }', entry), /"mcpServers" is not a JSON object/);
});

test('a large configuration keeps every byte outside the entry (Claude Code keeps its state in the same file)', () => {
  const before = `{\n  "numStartups": 12,\n  "big": 12345678901234567890,\n  "projects": ${JSON.stringify({ '/w': { history: ['a'] } })},\n  "mcpServers": {}\n}\n`;
  const added = withEntry(before, mcpEntry('/b.js', { nodeOnPath: '/n' }));
  assert.ok(added.startsWith('{\n  "numStartups": 12,\n  "big": 12345678901234567890,\n  "projects": {"/w":{"history":["a"]}},\n  "mcpServers": {'), 'a number JSON.parse would round is kept as written');
});

test('one place per user for the bridge, whichever editor runs; the newer bridge stays', () => {
  assert.equal(sharedMcpHome({}, '/home/u', 'linux'), '/home/u/.local/state/code-scanner/mcp');
  assert.equal(sharedMcpHome({ XDG_STATE_HOME: '/s' }, '/home/u', 'linux'), '/s/code-scanner/mcp');
  assert.equal(sharedMcpHome({ XDG_STATE_HOME: 'relative' }, '/home/u', 'linux'), '/home/u/.local/state/code-scanner/mcp', 'a relative XDG path is ignored, as the spec says');
  assert.equal(sharedMcpHome({}, '/Users/u', 'darwin'), '/Users/u/Library/Application Support/code-scanner/mcp');
  assert.equal(sharedMcpHome({ CODE_SCANNER_MCP_HOME: '/t' }, '/home/u', 'linux'), '/t');
  assert.ok(replacesBridge('0.2.0', undefined));
  assert.ok(replacesBridge('0.2.0', '0.2.0'));
  assert.ok(replacesBridge('0.10.0', '0.9.3'));
  assert.ok(!replacesBridge('0.1.9', '0.2.0'));
  assert.ok(!runsBridge({ command: 'node', args: ['/other/editor/code-scanner-mcp.js'] }, '/b.js'));
  assert.ok(!runsBridge(undefined, '/b.js'));
});
