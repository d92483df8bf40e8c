// Fix with Chat: the finding, why it matters and the service's suggested diff, handed to
// the editor's chat with the instruction to adapt the fix to the code as it is now. The
// prompt is filled in, not sent: the user reads it and presses Enter. Without a chat model
// in the editor the prompt goes to the clipboard instead, and the user is told so.
import * as vscode from 'vscode';
import { chatFixPrompt } from '../../core/agent/chatPrompt';
import type { Notifier } from '../notifier';
import type { Features } from '../features';
import type { LocatedIssue } from '../results/resultsStore';
import { readText } from '../workspaceFiles';
import { l10n } from '../../core/text/l10n';

/** What Fix with Chat did: the prompt, and whether the chat opened with it (else it was copied). */
export interface ChatHandOff { prompt: string; opened: boolean }

const CHAT_OPEN = 'workbench.action.chat.open';

/**
 * Whether a chat that can answer is in this editor: some language model is offered, and the
 * chat command exists. Not where the person turned AI features off (`chat.disableAIFeatures`):
 * VS Code then has no chat view to open, and its open command returns without a word, though
 * an extension may still offer a model.
 */
async function chatAvailable(features: Features): Promise<boolean> {
  if (!features.chatModels || vscode.workspace.getConfiguration('chat').get<boolean>('disableAIFeatures') === true) return false;
  try {
    const [models, commands] = await Promise.all([features.chatModels.selectChatModels(), vscode.commands.getCommands(true)]);
    return models.length > 0 && commands.includes(CHAT_OPEN);
  } catch {
    return false;
  }
}

export async function fixWithChat(l: LocatedIssue, notifier: Notifier, features: Features, o: { refusal?: string } = {}): Promise<ChatHandOff> {
  const prompt = chatFixPrompt({ issue: l.issue, currentText: await readText(l.folderUri, l.issue.path), refusal: o.refusal });
  if (await chatAvailable(features)) {
    try {
      await vscode.commands.executeCommand(CHAT_OPEN, { query: prompt, isPartialQuery: true });
      return { prompt, opened: true };
    } catch {
      // A chat that would not open: the clipboard below.
    }
  }
  await vscode.env.clipboard.writeText(prompt);
  void notifier.info(l10n.t('No AI chat is available in this editor, so the prompt to fix this finding was copied. Paste it into your AI assistant.'));
  return { prompt, opened: false };
}
