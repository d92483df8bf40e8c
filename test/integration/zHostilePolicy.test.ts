// A company policy whose glob pattern would hold a regular-expression matcher for a minute
// (`+(a|aa)+(a|aa)…b`) is matched in bounded time: now, and at the next start from the
// policies kept for the account (checked in zHostilePolicy.reloaded.ts after a reload).
import * as assert from 'assert';
import { adminPolicies, api, fixtureIssues, scan, signIn } from './helpers';
import { HOSTILE_POLICY, type HostilePolicy } from './hostilePolicy';
import { RELOAD_FILE, requestReload } from './reload';

/** Nested extglob repetition: catastrophic backtracking in a regular expression on a path like `aaaa…`. */
export const HOSTILE_PATTERN = `${'+(a|aa)'.repeat(30)}b`;

suite('editor: a hostile policy pattern', () => {
  test('is matched at once, and the window reloads with it kept (checked after the reload)', async function () {
    if (!RELOAD_FILE) this.skip();
    const a = await api();
    await signIn();
    await scan('codeScanner.scanWorkspace');
    const policyIds = await adminPolicies({ add: [{ name: 'Hostile pattern', cwes: ['CWE-95', 'CWE-798', 'CWE-489'], projects: [], glob_pattern: HOSTILE_PATTERN, guidance_text: 'never matches' }] });
    assert.ok((await a.refreshPolicyMatches())! >= 1, 'the policies were read and matched');
    assert.ok(!fixtureIssues(a).some((l) => l.issue.policies?.some((p) => p.name === 'Hostile pattern')), 'a pattern that cannot match takes no file');
    requestReload(HOSTILE_POLICY, { policyIds, pattern: HOSTILE_PATTERN } satisfies HostilePolicy);
  });
});
