// After the reload zKeptFix.test.ts asked for: the saved fix keeps its finding out; the old
// text written back (as git checkout does) brings it in again.
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import { api, waitFor } from './helpers';
import { KEPT_FIX, type KeptFix } from './keptFix';
import { reloadRequest } from './reload';

suite('editor: after a reload with a fix saved', () => {
  test('the finding stays out while the file has the fix, and comes back when the old text is written', async () => {
    const asked = reloadRequest<KeptFix>(KEPT_FIX);
    assert.ok(asked, 'the first run left what to check');
    const a = await api();
    const file = vscode.Uri.joinPath(vscode.Uri.parse(asked.folderUri), ...asked.path.split('/'));
    try {
      // Loaded and looked at against the saved file: still fixed.
      await waitFor('the stored findings', () => a.issues().some((l) => l.folderUri === asked.folderUri));
      await new Promise((r) => setTimeout(r, 500));
      assert.ok(!a.issues().some((l) => l.issue.id === asked.issueId), 'the saved fix keeps its finding out after the reload');
      assert.strictEqual(a.folderState(asked.folderUri)?.left?.find((l) => l.issue.id === asked.issueId)?.how, 'fixed');
    } finally {
      fs.writeFileSync(file.fsPath, asked.original);
    }
    await waitFor('the finding back once the old text is on disk', () => a.issues().some((l) => l.issue.id === asked.issueId), 15_000);
  });
});
