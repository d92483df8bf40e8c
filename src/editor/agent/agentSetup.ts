// Set Up AI Agent Access…: the MCP entry that lets an agent outside this editor (Claude Code,
// Cursor, Windsurf, any MCP client) reach the tools, shown, copied, or written into the
// agent's configuration file once the person confirms the file and the change, and removed
// again on request. The entry names the bridge and how to run it: nothing secret (the
// bridge finds this editor by itself; the API key never leaves SecretStorage).
import { existsSync } from 'node:fs';
import * as os from 'node:os';
import * as vscode from 'vscode';
import { errorMessage } from '../../core/errors';
import { plainObjectArg } from '../commands/args';
import { editConfig, readIfThere } from '../../core/agent/configFile';
import { ENTRY_NAME, agentConfigs, entryIn, mcpEntry, nodeOnPath, runsBridge, withEntry, type AgentKind } from '../../core/agent/agentConfig';
import { oneLine } from '../../core/text/untrusted';
import { hasRules, readRules, rulesBlock, rulesFileOf, rulesPathIn, withRules, withoutRules, writeRules } from '../../core/agent/rulesFile';
import { scannableFolders } from '../scan/fileChoice';
import type { Notifier } from '../notifier';
import { l10n } from '../../core/text/l10n';

export interface SetupResult { agent: AgentKind; action: 'added' | 'removed' | 'copied' | 'shown' | 'declined' | 'cancelled'; file?: string }

/** Adds or removes the instructions block in the agent's rules file of the folder, once the person confirms the file and the text. */
async function setRules(config: { kind: AgentKind; label: string }, folder: vscode.WorkspaceFolder, add: boolean, confirmed: boolean, notifier: Notifier): Promise<SetupResult> {
  const rel = rulesFileOf(config.kind);
  let file: string;
  let next: string;
  try {
    file = await rulesPathIn(folder.uri.fsPath, rel);
    const text = await readRules(file);
    next = add ? withRules(text, config.kind) : withoutRules(text ?? '', config.kind);
    if (next === (text ?? '')) return { agent: config.kind, action: add ? 'added' : 'removed', file };
  } catch (e) {
    void notifier.error(l10n.t('{0} could not be changed: {1}. Nothing was written.', rel, errorMessage(e)));
    return { agent: config.kind, action: 'cancelled' };
  }
  const yes = confirmed || await notifier.confirm(
    add ? l10n.t('Add Code Scanner\'s instructions to {0}?', rel) : l10n.t('Remove Code Scanner\'s instructions from {0}?', rel),
    add
      ? l10n.t('File: {0}\n\nAdded at its end (in English: the file is the repository\'s, read by every teammate\'s agent):\n\n{1}\n\nNothing else in the file changes.', file, rulesBlock())
      : l10n.t('File: {0}\n\nThe Code Scanner block is taken out; nothing else in the file changes (a file left empty is deleted).', file),
    add ? 'Add' : 'Remove',
  );
  if (!yes) return { agent: config.kind, action: 'declined', file };
  try {
    // Checked again just before writing: the path may have become a link meanwhile.
    await writeRules(await rulesPathIn(folder.uri.fsPath, rel), next);
  } catch (e) {
    void notifier.error(l10n.t('{0} could not be written: {1}.', file, errorMessage(e)));
    return { agent: config.kind, action: 'cancelled', file };
  }
  void notifier.info(add ? l10n.t('Added Code Scanner\'s instructions to {0}: {1} reads them at its next session.', rel, config.label) : l10n.t('Removed Code Scanner\'s instructions from {0}.', rel));
  return { agent: config.kind, action: add ? 'added' : 'removed', file };
}

/**
 * The command. `arg` answers for automation: `{ agent, action: 'add' | 'remove' | 'copy',
 * confirmed }` (`confirmed: true` answers the question before a write, as for the other
 * commands' automation; without it the person is asked).
 */
export async function setUpAgentAccess(arg: unknown, o: { bridgePath: string; notifier: Notifier; home?: string }): Promise<SetupResult | undefined> {
  const given = plainObjectArg<{ agent: unknown; action: unknown; confirmed: unknown }>(arg);
  const configs = agentConfigs(o.home ?? process.env.CODE_SCANNER_AGENT_CONFIG_HOME ?? os.homedir());
  const entry = mcpEntry(o.bridgePath, { nodeOnPath: nodeOnPath(process.env.PATH, existsSync) });
  const snippet = JSON.stringify({ mcpServers: { [ENTRY_NAME]: entry } }, null, 2);
  let config = configs.find((c) => c.kind === given?.agent);
  if (!config) {
    const picked = await vscode.window.showQuickPick(configs.map((c) => ({ label: c.label, description: c.file ? c.file : l10n.t('the entry to copy into its MCP configuration'), config: c })), {
      title: l10n.t('Set Up AI Agent Access'), placeHolder: l10n.t('Which agent should reach Code Scanner\'s tools in this editor?'),
    });
    if (!picked) return undefined;
    config = picked.config;
  }
  // The agent's own rules file in the workspace (opt-in, offered first): where it is, and whether it has our block.
  const folder = scannableFolders()[0];
  const rulesRel = rulesFileOf(config.kind);
  const rulesText = folder ? await rulesPathIn(folder.uri.fsPath, rulesRel).then(readRules, () => undefined) : undefined;
  // A file that cannot be read is never replaced: it could hold everything else the agent keeps.
  let unreadable: string | undefined;
  const current = config.file ? await readIfThere(config.file).catch((e: unknown) => { unreadable = errorMessage(e); return undefined; }) : undefined;
  const found = entryIn(current);
  // The same entry serves every window of every editor (the bridge's place is per user): ours
  // is kept; another (an older place, another runtime) can be pointed here.
  const ours = runsBridge(found, o.bridgePath);
  const elsewhere = found && !ours ? oneLine(Array.isArray(found.args) ? String(found.args[0]) : String(found.command), 200) : undefined;
  type Choice = 'add' | 'remove' | 'copy' | 'show' | 'rules' | 'removeRules';
  let action = (['add', 'remove', 'copy', 'show', 'rules', 'removeRules'] as const).find((a) => a === given?.action) as Choice | undefined;
  if (!action) {
    const items: { label: string; detail: string; action: Choice }[] = [
      ...(folder ? [hasRules(rulesText)
        ? { label: l10n.t('Remove the instructions from {0}', rulesRel), detail: l10n.t('The Code Scanner block in {0} of {1}', rulesRel, folder.name), action: 'removeRules' as const }
        : { label: l10n.t('Add instructions to {0}…', rulesRel), detail: l10n.t('Optional: tells {0} to scan what it changed, to ask Would CI Block This? before a commit, and never to follow a finding\'s text (you see the text first)', config.label), action: 'rules' as const }] : []),
      ...(config.file && !found ? [{ label: l10n.t('Add to {0}\'s configuration…', config.label), detail: l10n.t('{0} (you see the change first)', config.file), action: 'add' as const }] : []),
      ...(config.file && elsewhere ? [{ label: l10n.t('Update {0}\'s entry…', config.label), detail: l10n.t('It runs {0}; the updated entry reaches every window of every editor you run Code Scanner in', elsewhere), action: 'add' as const }] : []),
      ...(config.file && found ? [{ label: l10n.t('Remove from {0}\'s configuration', config.label), detail: ours ? l10n.t('Set up already: the entry reaches every window of every editor you run Code Scanner in ({0})', config.file) : config.file, action: 'remove' as const }] : []),
      { label: l10n.t('Copy the entry'), detail: l10n.t('The MCP server entry as JSON, to paste into the agent\'s configuration'), action: 'copy' },
      { label: l10n.t('Show the entry'), detail: l10n.t('Opens it in an editor, unsaved'), action: 'show' },
    ];
    action = (await vscode.window.showQuickPick(items, { title: l10n.t('Code Scanner for {0}', config.label) }))?.action;
    if (!action) return undefined;
  }
  if (action === 'copy') {
    await vscode.env.clipboard.writeText(snippet);
    void o.notifier.info(l10n.t('Copied the MCP entry for {0}: it runs the Code Scanner bridge with this editor\'s runtime. It holds no key: the bridge reaches this editor, which keeps the key.', config.label));
    return { agent: config.kind, action: 'copied' };
  }
  if (action === 'show') {
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ language: 'json', content: snippet }));
    return { agent: config.kind, action: 'shown' };
  }
  if (action === 'rules' || action === 'removeRules') {
    if (!folder) return undefined;
    return setRules(config, folder, action === 'rules', given?.confirmed === true, o.notifier);
  }
  if (!config.file) return undefined;
  if (unreadable) {
    void o.notifier.error(l10n.t('{0} could not be read: {1}. Nothing was written; copy the entry instead.', config.file, unreadable));
    return { agent: config.kind, action: 'cancelled', file: config.file };
  }
  try {
    withEntry(current, action === 'add' ? entry : undefined);
  } catch (e) {
    void o.notifier.error(l10n.t('{0} could not be changed: {1}. Nothing was written; copy the entry instead.', config.file, errorMessage(e)));
    return { agent: config.kind, action: 'cancelled', file: config.file };
  }
  const yes = given?.confirmed === true || await o.notifier.confirm(
    action === 'add' ? l10n.t('Add Code Scanner to {0}\'s MCP servers?', config.label) : l10n.t('Remove Code Scanner from {0}\'s MCP servers?', config.label),
    action === 'add' && elsewhere
      ? l10n.t('File: {0}\n\nThe "{1}" entry under "mcpServers", which runs {2}, becomes:\n{3}\n\nNothing else in the file changes, its comments and formatting included. The entry holds no key.', config.file, ENTRY_NAME, elsewhere, JSON.stringify(entry, null, 2))
      : action === 'add'
      ? l10n.t('File: {0}\n\nAdded under "mcpServers":\n"{1}": {2}\n\nNothing else in the file changes, its comments and formatting included. The entry holds no key.', config.file, ENTRY_NAME, JSON.stringify(entry, null, 2))
      : l10n.t('File: {0}\n\nThe "{1}" entry is removed from "mcpServers"; nothing else in the file changes, its comments and formatting included.', config.file, ENTRY_NAME),
    action === 'add' ? 'Add' : 'Remove',
  );
  if (!yes) return { agent: config.kind, action: 'declined', file: config.file };
  try {
    await editConfig(config.file, (now) => withEntry(now, action === 'add' ? entry : undefined));
  } catch (e) {
    void o.notifier.error(l10n.t('{0} could not be written: {1}.', config.file, errorMessage(e)));
    return { agent: config.kind, action: 'cancelled', file: config.file };
  }
  void o.notifier.info(action === 'add'
    ? l10n.t('{0} can now reach Code Scanner\'s tools in every window of every editor you run Code Scanner in (restart it to load the entry). Uploads and fixes are still confirmed in the editor.', config.label)
    : l10n.t('Removed Code Scanner from {0}\'s configuration.', config.label));
  return { agent: config.kind, action: action === 'add' ? 'added' : 'removed', file: config.file };
}
