// The APIs newer than the oldest supported VS Code: used where the editor has them, absent
// where it does not, each absence said once in the log with what it means for the person.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type * as vscode from 'vscode';
import { detectFeatures } from '../../../src/editor/features';

test('an editor of the oldest supported version: every API used, nothing to say', () => {
  const logged: string[] = [];
  const registerTool = () => ({ dispose() {} });
  const selectChatModels = async () => [];
  const f = detectFeatures({ version: '1.96.4', lm: { registerTool, selectChatModels } } as unknown as typeof vscode, (l) => logged.push(l));
  assert.equal(f.lmTools?.registerTool, registerTool);
  assert.equal(f.chatModels?.selectChatModels, selectChatModels);
  assert.deepEqual(logged, []);
});

test('an editor without language models at all (a fork): every agent surface of its own absent, each said once', () => {
  const logged: string[] = [];
  const f = detectFeatures({ version: '1.96.0' } as unknown as typeof vscode, (l) => logged.push(l));
  assert.deepEqual(f, {});
  assert.equal(logged.length, 2);
  assert.match(logged[0]!, /no language model tools API/);
  assert.match(logged[1]!, /Fix with Chat copies its prompt/);
});
