// CI's gate for the check before a push: where it is read (the repository's CI files, or
// codeScanner.ciGate), the service asked with the editor's progress and Cancel, and the
// place it was read opened for the person.
import * as vscode from 'vscode';
import type { ServiceClient } from '../../core/api';
import { isCancellation } from '../../core/async';
import { gateFlags, type JudgedGate } from '../../core/results/pushVerdict';
import { askServiceGate, type ServiceGateOutcome } from '../../core/results/serviceGate';
import type { CiGate } from '../../core/workspace/ciGate';
import { readCiGate } from '../../core/workspace/ciGateFiles';
import { sanitizeProjectName } from '../../core/workspace/projectName';
import { oneLine } from '../../core/text/untrusted';
import { l10n } from '../../core/text/l10n';

export interface FolderGate extends JudgedGate {
  /** The project CI's scans go to (`--project-name`), where the command names it. */
  projectName?: string;
  command: string;
}

/** The folder's CI gate: the setting, else its CI configuration; undefined when neither names one. */
export async function folderGate(folder: vscode.WorkspaceFolder): Promise<FolderGate | undefined> {
  const setting = vscode.workspace.getConfiguration('codeScanner', folder).get<string>('ciGate');
  const found = await readCiGate(folder.uri.fsPath, typeof setting === 'string' ? setting : undefined);
  if (!found) return undefined;
  const projectName = found.projectName ? sanitizeProjectName(found.projectName) : '';
  return {
    gate: found.gate,
    source: found.file && found.line ? { from: 'ci', file: found.file, line: found.line } : { from: 'setting' },
    command: found.command,
    ...(projectName ? { projectName } : {}),
  };
}

/** What asking the service ended with: its answer, the person's Cancel, or the failure. */
export type AskedGate = { kind: 'asked'; outcome: ServiceGateOutcome } | { kind: 'cancelled' } | { kind: 'failed'; error: unknown };

/** Asks the service CI's question about a scan, while saying so (with Cancel unless in the background). */
export function askWithProgress(client: ServiceClient, scanId: string, gate: Extract<CiGate, { kind: 'block-on' | 'fail' }>, quiet: boolean | undefined): Thenable<AskedGate> {
  return vscode.window.withProgress({
    location: quiet ? vscode.ProgressLocation.Window : vscode.ProgressLocation.Notification,
    title: l10n.t('Asking the service whether CI\'s gate {0} blocks the scan', gateFlags(gate)),
    cancellable: !quiet,
  }, async (progress, token): Promise<AskedGate> => {
    const stop = new AbortController();
    const cancelled = token.onCancellationRequested(() => stop.abort());
    try {
      const outcome = await askServiceGate(client, scanId, gate, {
        signal: stop.signal,
        // The service's own word, as data: one bounded line.
        onWaiting: (status, waitedMs) => progress.report({ message: l10n.t('the service is still judging the scan ("{0}", {1} s)', oneLine(status, 40), Math.round(waitedMs / 1000)) }),
      });
      return { kind: 'asked', outcome };
    } catch (e) {
      return isCancellation(e, stop.signal) || token.isCancellationRequested ? { kind: 'cancelled' } : { kind: 'failed', error: e };
    } finally {
      cancelled.dispose();
    }
  });
}

/** Opens where the gate was read: the CI file at its line, or the setting. */
export async function openGate(folder: vscode.WorkspaceFolder, gate: JudgedGate): Promise<void> {
  if (gate.source.from === 'setting') {
    await vscode.commands.executeCommand('workbench.action.openSettings', 'codeScanner.ciGate');
    return;
  }
  const uri = vscode.Uri.joinPath(folder.uri, ...gate.source.file.split('/'));
  const line = Math.max(0, gate.source.line - 1);
  await vscode.window.showTextDocument(uri, { selection: new vscode.Range(line, 0, line, 0), preview: true });
}
