// The editor APIs newer than the oldest VS Code the extension supports (engines.vscode,
// with @types/vscode at that version, so the compiler refuses anything newer elsewhere):
// reached only through here, detected at run time, and simply absent where the editor lacks
// them, with the reason in the log once. Cursor, Windsurf, VSCodium and pinned code-server
// releases run older VS Code versions.
import type * as vscode from 'vscode';
import { l10n } from '../core/text/l10n';

/** What the running editor offers of the newer APIs. */
export interface Features {
  /** Language model tools (the editor's own agent); undefined where absent. */
  lmTools?: Pick<typeof vscode.lm, 'registerTool'>;
  /** Language models to ask for a chat (Fix with Chat opens the chat when one is offered). */
  chatModels?: Pick<typeof vscode.lm, 'selectChatModels'>;
}

/** Reads what the editor offers; each missing API is said once in the log, with what is absent because of it. */
export function detectFeatures(api: typeof vscode, log: (line: string) => void): Features {
  const lm = (api as { lm?: Partial<typeof vscode.lm> }).lm;
  const features: Features = {};
  const version = (api as { version?: string }).version ?? l10n.t('this editor');
  if (typeof lm?.registerTool === 'function') features.lmTools = lm as Pick<typeof vscode.lm, 'registerTool'>;
  else log(l10n.t('VS Code {0} has no language model tools API: the editor\'s own agent does not get Code Scanner\'s tools (agents still reach them through Set Up AI Agent Access…).', version));
  if (typeof lm?.selectChatModels === 'function') features.chatModels = lm as Pick<typeof vscode.lm, 'selectChatModels'>;
  else log(l10n.t('VS Code {0} has no language model API: Fix with Chat copies its prompt for you to paste into your AI assistant.', version));
  return features;
}
