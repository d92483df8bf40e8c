// Everything that depends on the account is derived again at every sign-in, sign-out and
// switch: A -> B -> A gives A's policy labels and policy filter back without a reload;
// signed out, the findings stay and the status bar and the view say so.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { adminPolicies, adminScans, api, env, fixtureIssues, folderUriOf, scan, signIn, waitFor, workspaceRoot } from './helpers';

/** The reference service's token of another company (Globex), which has policies of its own. */
const OTHER_COMPANY_TOKEN = 'csk_globex_9c8b7a6d5e4f3a21';

suite('editor: account switches and sign-out', () => {
  let policyIds: number[] = [];

  suiteSetup(async () => {
    await api();
    await signIn();
  });

  suiteTeardown(async () => {
    if (policyIds.length) await adminPolicies({ remove: policyIds });
    await signIn();
    await (await api()).refreshPolicyMatches();
  });

  /** The findings of the fixture marked as violating a policy, by row description and by the filter. */
  async function violations(): Promise<{ rows: number; filtered: number }> {
    const a = await api();
    const rows = fixtureIssues(a).filter((l) => l.issue.policies?.length).length;
    await vscode.commands.executeCommand('codeScanner.togglePolicyViolationsOnly', true);
    const filtered = a.issuesTree.visibleIssues(folderUriOf(workspaceRoot())).length;
    await vscode.commands.executeCommand('codeScanner.togglePolicyViolationsOnly', false);
    return { rows, filtered };
  }

  test('A -> B -> A: the findings are matched against A\'s policies again, without a reload', async function () {
    this.timeout(90_000);
    const a = await api();
    await scan('codeScanner.scanWorkspace');
    policyIds = await adminPolicies({ add: [{ name: 'Account A: no eval', cwes: ['CWE-95'], projects: [], guidance_text: 'Never evaluate input.' }] });
    await a.refreshPolicyMatches();
    const before = await violations();
    assert.ok(before.rows >= 1 && before.filtered === before.rows, JSON.stringify(before));

    assert.ok(await vscode.commands.executeCommand('codeScanner.signIn', { token: OTHER_COMPANY_TOKEN }), 'signed in as B');
    // B's own policies are read for B (none of them is about eval).
    await waitFor('B\'s policies in use', () => !fixtureIssues(a).some((l) => l.issue.policies?.some((p) => p.name === 'Account A: no eval')), 20_000);

    assert.ok(await vscode.commands.executeCommand('codeScanner.signIn', { token: env('CODE_SCANNER_TEST_TOKEN') }), 'signed in as A again');
    await scan('codeScanner.scanWorkspace');
    await waitFor('A\'s policy labels back', () => fixtureIssues(a).some((l) => l.issue.policies?.some((p) => p.name === 'Account A: no eval')), 20_000);
    const after = await violations();
    assert.deepStrictEqual(after, before, 'the same findings violate A\'s policy as before the switch');
  });

  test('target policies are each account\'s own: A\'s are not sent as B, and are back when A signs in again', async function () {
    this.timeout(120_000);
    await signIn();
    const [target] = await adminPolicies({ add: [{ name: 'Account A: target of this workspace', cwes: ['CWE-95'], projects: [] }] });
    policyIds.push(target!);
    const sent = async () => {
      const before = (await adminScans()).length;
      await scan('codeScanner.scanWorkspace');
      // One scan per folder of the workspace: what they sent, once.
      return [...new Set((await adminScans()).slice(before).map((x) => x.formParts.target_policies ?? ''))];
    };
    await vscode.commands.executeCommand('codeScanner.chooseTargetPolicies', { policyIds: [target] });
    try {
      assert.deepStrictEqual(await sent(), [String(target)], 'A\'s scan sends A\'s target');
      assert.ok(await vscode.commands.executeCommand('codeScanner.signIn', { token: OTHER_COMPANY_TOKEN }), 'signed in as B');
      assert.deepStrictEqual(await sent(), [''], 'B\'s scan sends none of A\'s');
      assert.ok(await vscode.commands.executeCommand('codeScanner.signIn', { token: env('CODE_SCANNER_TEST_TOKEN') }), 'signed in as A again');
      assert.deepStrictEqual(await sent(), [String(target)], 'A\'s target is back');
    } finally {
      await signIn();
      await vscode.commands.executeCommand('codeScanner.chooseTargetPolicies', { policyIds: [] });
    }
  });

  test('signed out, the findings stay and the status bar and the view say so', async function () {
    this.timeout(60_000);
    const a = await api();
    await signIn();
    await scan('codeScanner.scanWorkspace');
    const count = a.issues().length;
    await vscode.commands.executeCommand('codeScanner.signOut', { confirmed: true });
    try {
      await waitFor('the status bar to say signed out', () => /signed out/.test(a.statusBar.text));
      assert.match(a.statusBar.text, /\d+ issues? · \$\(sign-in\) signed out/);
      assert.strictEqual(a.statusBar.command, 'codeScanner.signIn');
      assert.match(a.statusBar.accessibilityInformation?.label ?? '', /signed out/);
      assert.match(a.issuesTree.viewMessage ?? '', /Signed out: the findings shown are those of your last scans/);
      assert.strictEqual(a.issues().length, count, 'the findings stay');
    } finally {
      await signIn();
    }
    await waitFor('the note to go once signed in', () => !/Signed out/.test(a.issuesTree.viewMessage ?? '') && !/signed out/.test(a.statusBar.text));
  });

  test('a changed service address that the key is not allowed at yet is said in the status bar, with the question one click away', async () => {
    const a = await api();
    const config = vscode.workspace.getConfiguration('codeScanner');
    await config.update('customBaseUrl', 'http://127.0.0.1:9/api/v1', vscode.ConfigurationTarget.Global);
    try {
      await waitFor('the status bar to say the address changed', () => /new service address/.test(a.statusBar.text));
      assert.strictEqual(a.statusBar.command, 'codeScanner.allowServiceAddress');
      assert.match(a.statusBar.accessibilityInformation?.label ?? '', /The service address changed to http:\/\/127\.0\.0\.1:9 since you signed in at .*scans wait/);
    } finally {
      await config.update('customBaseUrl', env('CODE_SCANNER_TEST_BASE_URL'), vscode.ConfigurationTarget.Global);
    }
    await waitFor('the note to go', () => !/new service address/.test(a.statusBar.text));
  });
});
