// After the reload zHostilePolicy.test.ts asked for: the extension starts with the hostile
// policy in its kept policies and matches every finding against it without holding the
// extension host (a frozen host would time this test out).
import * as assert from 'assert';
import { adminPolicies, api, waitFor } from './helpers';
import { HOSTILE_POLICY, type HostilePolicy } from './hostilePolicy';
import { reloadRequest } from './reload';

suite('editor: after a reload with a hostile policy pattern kept', () => {
  test('the extension starts and answers at once; the policy matches nothing', async function () {
    this.timeout(30_000);
    const asked = reloadRequest<HostilePolicy>(HOSTILE_POLICY);
    assert.ok(asked, 'the first run left what to check');
    const a = await api();
    try {
      await waitFor('the stored findings', () => a.issues().length > 0, 15_000);
      const started = Date.now();
      await new Promise((r) => setTimeout(r, 50));
      assert.ok(Date.now() - started < 5000, 'the extension host answers timers');
      await waitFor('the kept policies in use', () => (a.matchedPolicyCount() ?? 0) >= 1, 10_000);
      assert.ok(!a.issues().some((l) => l.issue.policies?.some((p) => p.name === 'Hostile pattern')));
    } finally {
      await adminPolicies({ remove: asked.policyIds });
      await a.refreshPolicyMatches();
    }
  });
});
