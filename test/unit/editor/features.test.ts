// The APIs newer than the oldest supported VS Code: used where the editor has them, absent
// where it does not, each absence said once in the log with what it means for the person.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type * as vscode from 'vscode';
import { detectFeatures } from '../../../src/editor/features';

test('an editor of the oldest supported version: no MCP provider, the rest used; the reason logged once each', () => {
  const logged: string[] = [];
  const registerTool = () => ({ dispose() {} });
  const selectChatModels = async () => [];
  const f = detectFeatures({ version: '1.96.4', lm: { registerTool, selectChatModels } } as unknown as typeof vscode, (l) => logged.push(l));
  assert.equal(f.lmTools?.registerTool, registerTool);
  assert.equal(f.chatModels?.selectChatModels, selectChatModels);
  assert.equal(f.mcp, undefined);
  assert.deepEqual(logged, ['VS Code 1.96.4 has no MCP server provider API: its own MCP support does not list Code Scanner (other agents reach it through Set Up AI Agent Access…).']);
});

test('an editor without language models at all (a fork): every agent surface of its own absent, each said once', () => {
  const logged: string[] = [];
  const f = detectFeatures({ version: '1.96.0' } as unknown as typeof vscode, (l) => logged.push(l));
  assert.deepEqual(f, {});
  assert.equal(logged.length, 3);
  assert.match(logged[0]!, /no language model tools API/);
  assert.match(logged[2]!, /Fix with Chat copies its prompt/);
});

test('the newest editor: the MCP provider registers a stdio server built with the editor\'s own class', () => {
  const made: unknown[] = [];
  class McpStdioServerDefinition { constructor(...a: unknown[]) { made.push(a); } }
  const registerMcpServerDefinitionProvider = () => ({ dispose() {} });
  const f = detectFeatures({ version: '1.139.0', McpStdioServerDefinition, lm: { registerTool() {}, selectChatModels() {}, registerMcpServerDefinitionProvider } } as unknown as typeof vscode, () => assert.fail('nothing to say'));
  const server = f.mcp!.stdioServer('Code Scanner', '/bin/node', ['/b.js'], { A: '1' }, '2');
  assert.ok(server instanceof McpStdioServerDefinition);
  assert.deepEqual(made, [['Code Scanner', '/bin/node', ['/b.js'], { A: '1' }, '2']]);
});
