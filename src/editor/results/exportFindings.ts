// Export Findings…: the findings of every folder as a SARIF 2.1.0 file, for code review
// tools, CI dashboards and the SARIF Viewer. Locations are where the findings are now (as
// tracked through edits), fixes are computed against the text as it is now.
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { toSarif, writeExportFile, type ExportedFolder } from '../../core/export';
import { isFixable } from '../../core/issues';
import { readTextInside } from '../../core/workspace/readInside';
import { plainObjectArg } from '../commands/args';
import type { SomeCommandHandlers } from '../commands/signatures';
import type { Ctx } from '../context';
import type { LocatedIssue, ResultsStore } from './resultsStore';
import { folderNameOf } from '../workspaceFiles';
import { errorMessage } from '../../core/errors';
import { l10n, plural } from '../../core/text/l10n';

export interface ExportResult { uri: string; findings: number; runs: number }

async function currentText(l: LocatedIssue): Promise<string | undefined> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === l.uri.toString());
  return open ? open.getText() : readTextInside(vscode.Uri.parse(l.folderUri).fsPath, l.issue.path);
}

async function exportedFolders(store: ResultsStore): Promise<ExportedFolder[]> {
  const byFolder = new Map<string, LocatedIssue[]>();
  for (const l of store.all()) byFolder.set(l.folderUri, [...(byFolder.get(l.folderUri) ?? []), l]);
  const folders: ExportedFolder[] = [];
  for (const [folderUri, located] of byFolder) {
    // Only files with a fix are read: their fix is placed against the current text.
    const texts = new Map<string, string | undefined>();
    for (const l of located) if (isFixable(l.issue) && !texts.has(l.issue.path)) texts.set(l.issue.path, await currentText(l));
    folders.push({
      folderUri,
      name: folderNameOf(folderUri),
      findings: located.map((l) => ({ issue: l.issue, dismissal: store.dismissalOf(l.issue) })),
      readText: (p) => texts.get(p),
      scanIds: store.scansOf(folderUri).map((s) => s.scanId),
    });
  }
  return folders;
}

/** Export Findings…: the workspace's findings as a SARIF log, where the user chooses. */
export function exportFeature({ extension: context, store, notifier }: Ctx) {
  const exportFindings = async (arg: unknown) => {
    if (!store.hasResults()) {
      void notifier.info(l10n.t('No findings to export yet: scan first.'));
      return undefined;
    }
    // `{ uri }` from automation; people choose where to save. Proposed outside the workspace:
    // saved inside it, the export would be uploaded by the next scan (its default name is
    // left out of uploads all the same).
    const given = plainObjectArg<{ uri: string }>(arg)?.uri;
    const name = `${(vscode.workspace.name ?? 'workspace').replace(/[^A-Za-z0-9._-]+/g, '-')}-code-scanner-findings.sarif`;
    const target = typeof given === 'string' ? vscode.Uri.parse(given) : await vscode.window.showSaveDialog({
      title: l10n.t('Export Findings as SARIF'),
      saveLabel: 'Export',
      defaultUri: vscode.Uri.file(path.join(os.homedir(), name)),
      filters: { 'SARIF log': ['sarif', 'json'] },
    });
    if (!target) return undefined;
    const folders = await exportedFolders(store);
    const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0');
    const log = toSarif(folders, { tool: { name: l10n.t('Code Scanner'), version } });
    const data = Buffer.from(JSON.stringify(log, null, 2) + '\n', 'utf8');
    try {
      // A local file (also on a remote's side): never through a link, never elsewhere than shown.
      if (target.scheme === 'file') await writeExportFile(target.fsPath, data);
      else await vscode.workspace.fs.writeFile(target, data);
    } catch (e) {
      void notifier.error(l10n.t('Could not write {0}: {1}', target.fsPath || target.toString(), errorMessage(e)));
      return undefined;
    }
    const findings = folders.reduce((n, f) => n + f.findings.length, 0);
    void notifier.info(l10n.t('Exported {0} as SARIF to {1}.', plural(findings, l10n.t('{0} finding'), l10n.t('{0} findings')), target.fsPath || target.toString()), {
      title: l10n.t('Open'), run: () => vscode.window.showTextDocument(target),
    });
    return { uri: target.toString(), findings, runs: log.runs.length } satisfies ExportResult;
  };
  return { commands: { 'codeScanner.exportFindings': exportFindings } satisfies SomeCommandHandlers };
}
