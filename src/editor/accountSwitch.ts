// Signing in as another account must not show the previous account's findings, nor send
// its target policies (the new company would refuse them).
import type * as vscode from 'vscode';
import type { TargetPolicies } from './account/targetPolicies';
import type { Notifier } from './notifier';
import type { ResultsStore } from './resultsStore';
import type { Session } from './session';

export function followAccountChanges(session: Session, store: ResultsStore, targets: TargetPolicies, notifier: Notifier, log: vscode.LogOutputChannel): vscode.Disposable {
  return session.onDidSignIn(async (account) => {
    if (!account) return;
    const owners = store.accounts();
    if (owners.size && !owners.has(account)) {
      store.clear();
      void notifier.info('You signed in to another account, so the findings of the previous account were cleared. Scan again to see this account\'s findings.');
    }
    const ids = targets.ids;
    if (!ids.length) return;
    try {
      const client = await session.getClient();
      if (!client) return;
      const active = new Set((await client.listAllPolicies({ active: true })).filter((p) => p.active !== false && !p.archived).map((p) => p.id));
      const dropped = ids.filter((id) => !active.has(id));
      if (!dropped.length) return;
      await targets.set(ids.filter((id) => active.has(id)));
      void notifier.warn(`${dropped.map((id) => `#${id}`).join(', ')} ${dropped.length === 1 ? 'is not an active policy' : 'are not active policies'} of this account's company, so ${dropped.length === 1 ? 'it was' : 'they were'} removed from the target policies of this workspace.`);
    } catch (err) {
      log.warn(`Could not check the target policies against the new account: ${err instanceof Error ? err.message : String(err)}`);
    }
  });
}
