// Check Staged Changes, Check Branch Before Push and their verdict in the status bar: the
// commands (palette, the Source Control view's title, the Quality Issues view), a status bar
// item that says the verdict until the checked content changes, and the setting that checks
// the branch after each commit.
import * as vscode from 'vscode';
import { verdictText } from '../../core/results/pushVerdict';
import { escapeMarkdown } from '../../core/text/untrusted';
import { scanOptionsArg } from '../commands/args';
import type { CommandHandlers } from '../commands/signatures';
import type { FeatureCtx } from '../controllers';
import { folderNameOf } from '../workspaceFiles';
import { PushCheck } from './pushCheck';
import { folderGate, openGate } from './ciGateOf';
import { gateWhere } from '../../core/results/pushVerdict';
import { scannableFolders } from '../scan/fileChoice';
import { l10n } from '../../core/text/l10n';

export function pushFeature(ctx: FeatureCtx): { check: PushCheck; statusBar: vscode.StatusBarItem; commands: Pick<CommandHandlers, 'codeScanner.checkStagedChanges' | 'codeScanner.checkBranchBeforePush' | 'codeScanner.showPushCheck' | 'codeScanner.openCiGate'> } {
  const { store, own } = ctx;
  const check = own(new PushCheck(ctx));
  const item = own(vscode.window.createStatusBarItem('codeScanner.pushCheck', vscode.StatusBarAlignment.Left, 49));
  item.name = l10n.t('Code Scanner: Would CI Block This?');
  const update = () => {
    const results = store.pushCheckFolders().map((f) => ({ folder: folderNameOf(f), r: store.pushCheckOf(f)! }));
    if (!results.length) {
      item.hide();
      return;
    }
    const blocked = results.filter((x) => x.r.verdict.kind === 'blocked' && !x.r.outdated);
    const unknown = results.filter((x) => x.r.verdict.kind === 'unknown' && !x.r.outdated);
    const old = results.every((x) => x.r.outdated);
    const byGate = results.every((x) => x.r.verdict.gate);
    item.text = old ? l10n.t('$(history) push check: changed since') : blocked.length ? l10n.t('$(error) CI would block') : unknown.length ? l10n.t('$(question) CI: unknown') : byGate ? l10n.t('$(pass) CI would pass') : l10n.t('$(pass) no policy violations');
    const lines = results.map((x) => `${results.length > 1 ? `${x.folder}: ` : ''}${x.r.outdated ? l10n.t('Changed since the check: check again. Was: ') : ''}${verdictText(x.r.verdict)}`);
    // Where CI's gate was read, as a link that only opens it.
    const gated = results.find((x) => x.r.verdict.gate);
    const link = gated ? `\n\n[${escapeMarkdown(l10n.t('Open CI\'s gate ({0})', gateWhere(gated.r.verdict.gate!)))}](command:codeScanner.openCiGate)` : '';
    const tooltip = new vscode.MarkdownString(l10n.t('**Would CI block this?** ({0})\n\n{1}\n\nClick to {2}.', x(results[0]!.r.what), lines.map(escapeMarkdown).join('\n\n'), blocked.length ? l10n.t('show the blocking findings') : l10n.t('check again')) + link);
    tooltip.isTrusted = { enabledCommands: ['codeScanner.openCiGate'] };
    item.tooltip = tooltip;
    item.accessibilityInformation = { label: l10n.t('Code Scanner: {0}', lines.join(' ')), role: 'button' };
    item.backgroundColor = blocked.length && !old ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    item.command = blocked.length && !old ? 'codeScanner.showPushCheck' : results[0]!.r.what === 'staged' ? 'codeScanner.checkStagedChanges' : 'codeScanner.checkBranchBeforePush';
    item.show();
  };
  const x = (what: string) => (what === 'staged' ? l10n.t('staged changes') : l10n.t('the branch before push'));
  own(store.onDidChange((e) => { if (!e.moved) update(); }));
  update();
  const follow = () => { if (vscode.workspace.getConfiguration('codeScanner').get('checkBeforePush') === 'afterCommit') void check.followCommits(); };
  own(vscode.workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration('codeScanner.checkBeforePush')) follow(); }));
  follow();
  return {
    check,
    statusBar: item,
    commands: {
      'codeScanner.checkStagedChanges': (arg) => check.check('staged', { options: scanOptionsArg(arg) }),
      'codeScanner.checkBranchBeforePush': (arg) => check.check('branch', { options: scanOptionsArg(arg) }),
      'codeScanner.openCiGate': async () => {
        // The last check's gate, else the one each folder has now.
        for (const folder of scannableFolders()) {
          const gate = store.pushCheckOf(folder.uri.toString())?.verdict.gate ?? (await folderGate(folder));
          if (gate) return openGate(folder, gate);
        }
        void ctx.notifier.info(l10n.t('No CI gate was found: no corgea scan command in the repository\'s CI configuration, and {0} is not set. The check before a push judges by the company\'s policies.', 'codeScanner.ciGate'));
      },
      'codeScanner.showPushCheck': async () => {
        const withFindings = store.pushCheckFolders().filter((f) => store.pushCheckOf(f)?.issues.length);
        await vscode.commands.executeCommand('codeScanner.issues.focus');
        if (!withFindings.length) {
          void ctx.notifier.info(store.pushCheckFolders().length ? l10n.t('The last check found no finding that would block CI.') : l10n.t('Nothing was checked yet: run Check Staged Changes or Check Branch Before Push.'));
          return;
        }
        const n = withFindings.reduce((k, f) => k + store.pushCheckOf(f)!.issues.length, 0);
        ctx.log.info(`Showing ${n} finding(s) that would block CI.`);
      },
    },
  };
}
