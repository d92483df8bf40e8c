// An agent's MCP configuration: Code Scanner's entry added beside what is there, taken out
// leaving the rest as it was; a file that is not a JSON object is refused, not overwritten;
// the entry holds nothing secret.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ENTRY_NAME, agentConfigs, hasEntry, mcpEntry, nodeOnPath, withEntry } from '../../../src/core/agent/agentConfig';

test('the entry is added beside the other servers and settings, and taken out again', () => {
  const entry = mcpEntry('/home/u/.storage/mcp/code-scanner-mcp.js', { nodeOnPath: '/usr/bin/node' });
  assert.deepEqual(entry, { type: 'stdio', command: '/usr/bin/node', args: ['/home/u/.storage/mcp/code-scanner-mcp.js'] });
  const before = JSON.stringify({ theme: 'dark', mcpServers: { other: { command: 'x' } } });
  const added = withEntry(before, entry);
  assert.ok(hasEntry(added));
  assert.deepEqual(JSON.parse(added), { theme: 'dark', mcpServers: { other: { command: 'x' }, [ENTRY_NAME]: entry } });
  assert.deepEqual(JSON.parse(withEntry(added, undefined)), JSON.parse(before));
  assert.deepEqual(JSON.parse(withEntry(undefined, entry)), { mcpServers: { [ENTRY_NAME]: entry } }, 'a file not there yet');
  assert.throws(() => withEntry('[1, 2]', entry), /not hold a JSON object/);
  assert.throws(() => withEntry('{ broken', entry));
  assert.ok(!hasEntry('{ broken'));
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
