// A window reload while the service is scanning: the scan was saved when its upload
// completed, and the new window waits for it again and shows its findings (the check is in
// zReload.reloaded.ts, which the suite runs after the reload). Named to run last: the scan
// it starts is still running when the suite ends and the window reloads.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { FAST, api, folderUriOf, setAnswerMode, signIn, waitFor, workspaceRoot } from './helpers';
import { RELOAD_FILE, requestReload } from './reload';
import { RELOAD_WHILE_SCANNING, type ReloadWhileScanning } from './reloadWhileScanning';

suite('editor: a reload while the service is scanning', () => {
  test('the scan is saved as waited for, and the window reloads (its findings are checked after the reload)', async function () {
    if (!RELOAD_FILE) this.skip();
    const a = await api();
    await signIn();
    const folderUri = folderUriOf(workspaceRoot());
    // Held until the new window has shown that it waits (it then lets the scan finish): a busy
    // machine may take long over the reload, and the scan must still be running after it.
    await setAnswerMode({ shapes: 'real', processingMs: 15 * 60_000 });
    // Not awaited: the reload ends this window while it waits.
    void vscode.commands.executeCommand('codeScanner.scanWorkspace', FAST);
    // Both folders scan at once, and the status bar tells of either: the second, outside git,
    // runs no git and may reach the service's wait first. This folder's own record decides.
    const waiting = () => (a.folderState(folderUri)?.pending ?? []).filter((p) => p.waiting);
    await waitFor('the service to be scanning this folder', () => waiting().length > 0 && /the service (has queued the scan|is scanning)/.test(a.statusBar.text), 30_000);
    const pending = waiting();
    assert.strictEqual(pending.length, 1, JSON.stringify(a.folderState(folderUri)?.pending));
    requestReload(RELOAD_WHILE_SCANNING, { scanId: pending[0].scanId, folderUri } satisfies ReloadWhileScanning);
  });
});
