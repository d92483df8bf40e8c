// Signing in as another account must not show the previous account's findings, nor send
// its target policies (the new company would refuse them): each account has its own
// (targetPolicies.ts), and an account's own that are no longer active are dropped, by name.
import { STATE_KEYS } from '../../core/persist/stateKeys';
import type { Ctx } from '../context';
import { setContext } from '../commands/manager';
import { CONTEXT_KEYS } from '../commands/contextKeys';
import { errorMessage } from '../../core/errors';
import { l10n, listWords } from '../../core/text/l10n';
import { oneLine } from '../../core/text/untrusted';

/** Kept across reloads: the view says the findings were another account's until this one's scan completes. */
const CLEARED_KEY = STATE_KEYS.otherAccountCleared.key;

export function followAccountChanges({ session, store, targets, notifier, log, own, extension }: Ctx): void {
  const state = extension.workspaceState;
  const cleared = (on: boolean) => {
    void state.update(CLEARED_KEY, on || undefined);
    void setContext(CONTEXT_KEYS.otherAccountCleared, on);
  };
  if (state.get(CLEARED_KEY)) cleared(!store.hasResults());
  own(store.onDidChange(() => { if (state.get(CLEARED_KEY) && store.hasResults()) cleared(false); }));
  own(session.onDidSignIn(async (account) => {
    if (!account) return;
    const owners = store.accounts();
    if (owners.size && !owners.has(account)) {
      store.clear();
      // Not "no scan has completed": scans did, of the other account, and are not shown.
      cleared(true);
      void notifier.info(l10n.t('You signed in to another account, so the findings of the previous account were cleared. Scan again to see this account\'s findings.'));
    }
    const ids = targets.ids;
    if (!ids.length) return;
    try {
      const client = await session.getClient();
      if (!client) return;
      // Every policy the company has, to name a dropped one as the person knows it.
      const all = await client.listAllPolicies({});
      const active = new Set(all.filter((p) => p.active !== false && !p.archived).map((p) => p.id));
      const dropped = ids.filter((id) => !active.has(id));
      if (!dropped.length) return;
      await targets.set(ids.filter((id) => active.has(id)));
      const named = dropped.map((id) => oneLine(all.find((p) => p.id === id)?.name ?? '', 80) || l10n.t('a policy this company no longer has (id {0})', id));
      void notifier.warn(dropped.length === 1
        ? l10n.t('{0} is not an active policy of this account\'s company, so it was removed from the target policies of this workspace.', named[0]!)
        : l10n.t('{0} are not active policies of this account\'s company, so they were removed from the target policies of this workspace.', listWords(named)));
    } catch (err) {
      log.warn(`Could not check the target policies against the new account: ${errorMessage(err)}`);
    }
  }));
}
