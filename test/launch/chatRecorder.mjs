// A language model and a chat participant for the tests' VS Code, which has no AI account
// offline: the model answers one line and records the messages and tools each request
// carried; the participant (@recorder) records what the chat made of the text it was sent
// (its prompt, the files and tools it referenced, its command) and passes them on to the
// model as an assistant's participant does. The tests read both through the extension's exports. Test-only: installed into
// the chat window's code-server by the launcher, never part of the extension.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createVSIX } from '@vscode/vsce';
import { tempDir } from './harness.mjs';

const extensionJs = `
const vscode = require('vscode');
const VENDOR = 'code-scanner-tests';
const text = (parts) => parts.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '[' + (p && p.constructor && p.constructor.name) + ']')).join('');
exports.activate = (context) => {
  const recorded = { requests: [], modelCalls: [] };
  context.subscriptions.push(vscode.lm.registerLanguageModelChatProvider(VENDOR, {
    provideLanguageModelChatInformation: () => [{
      id: 'recorder-1', name: 'Recorder', family: 'recorder', version: '1.0.0',
      maxInputTokens: 200000, maxOutputTokens: 4000, capabilities: { toolCalling: true, imageInput: false },
    }],
    async provideLanguageModelChatResponse(model, messages, options, progress) {
      recorded.modelCalls.push({
        messages: messages.map((m) => ({ role: m.role, text: text(m.content) })),
        tools: (options.tools || []).map((t) => t.name),
      });
      progress.report(new vscode.LanguageModelTextPart('Recorded.'));
    },
    async provideTokenCount(model, value) { return Math.ceil((typeof value === 'string' ? value : text(value.content)).length / 4); },
  }));
  context.subscriptions.push(vscode.chat.createChatParticipant('code-scanner-tests.recorder', async (request, chatContext, stream, token) => {
    recorded.requests.push({
      prompt: request.prompt,
      command: request.command,
      references: request.references.map((r) => ({ id: r.id, name: r.name, value: String(r.value) })),
      toolReferences: request.toolReferences.map((t) => t.name),
    });
    // As an AI assistant's participant does: the files referenced go with the prompt, the
    // tools referenced are offered to the model.
    const [model] = await vscode.lm.selectChatModels({ vendor: VENDOR });
    const messages = [
      ...request.references.map((r) => vscode.LanguageModelChatMessage.User('[reference ' + r.id + '] ' + String(r.value))),
      vscode.LanguageModelChatMessage.User(request.prompt),
    ];
    const tools = request.toolReferences.map((t) => vscode.lm.tools.find((x) => x.name === t.name)).filter(Boolean)
      .map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
    const answer = await model.sendRequest(messages, { tools }, token);
    for await (const part of answer.text) stream.markdown(part);
  }));
  return recorded;
};
`;

/** Builds the recorder and returns its .vsix path. */
export async function chatRecorderVsix() {
  const dir = tempDir('code-scanner-chat-recorder-');
  writeFileSync(join(dir, 'extension.js'), extensionJs);
  writeFileSync(join(dir, 'README.md'), 'A language model and @recorder for the tests: records what a chat request carried.\n');
  writeFileSync(join(dir, 'LICENSE'), 'MIT\n');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({
    name: 'chat-recorder',
    displayName: 'Test chat recorder',
    publisher: 'code-scanner-tests',
    version: '1.0.0',
    license: 'MIT',
    repository: { type: 'git', url: 'https://example.invalid/none.git' },
    engines: { vscode: '^1.104.0' },
    main: './extension.js',
    files: ['extension.js'],
    activationEvents: ['onStartupFinished'],
    contributes: {
      languageModelChatProviders: [{ vendor: 'code-scanner-tests', displayName: 'Recorder' }],
      chatParticipants: [{ id: 'code-scanner-tests.recorder', name: 'recorder', fullName: 'Recorder', description: 'Records what a chat request carried' }],
    },
  }));
  const packagePath = join(dir, 'chat-recorder.vsix');
  await createVSIX({ cwd: dir, packagePath, dependencies: false, allowMissingRepository: true, skipLicense: true });
  return packagePath;
}
