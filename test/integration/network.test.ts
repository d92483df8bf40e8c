// The user's network in a real VS Code, set only through the editor's own settings: an
// authenticating proxy (a real one, with an access log) and a service whose certificate
// comes from a private CA installed in the system's store (the launcher puts the test CA
// there), as behind a company's TLS-inspecting proxy. Sign in, scan and fix go through it;
// the certificate and proxy settings do what VS Code's do; Check Connection tells it all.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ConnectionReport } from '../../src/core/network';
import { TEST_HOST } from '../network/testCa';
import { startTestProxy, type TestProxy } from '../network/testProxy';
import { FAST, api, closeAllEditors, env, logText, revert, scan, signIn, waitFor } from './helpers';
import type { ScanSummary } from '../../src/editor/scan/scanController';

const PROXY_USER = 'alice';
const PROXY_PASSWORD = 'n3tw0rk-pr0xy-pw';

const http = () => vscode.workspace.getConfiguration('http');
const scanner = () => vscode.workspace.getConfiguration('codeScanner');

async function setHttp(key: string, value: unknown): Promise<void> {
  await http().update(key, value, vscode.ConfigurationTarget.Global);
}

suite('the user\'s network: proxy, private CA, editor settings only', () => {
  let proxy: TestProxy;
  const remoteUrl = () => `https://${TEST_HOST}:${env('CODE_SCANNER_TEST_TLS_PORT')}/api/v1`;

  suiteSetup(async () => {
    await api();
    proxy = await startTestProxy({ auth: { user: PROXY_USER, password: PROXY_PASSWORD }, hosts: { [TEST_HOST]: '127.0.0.1' } });
  });

  teardown(async () => {
    for (const key of ['proxy', 'proxyAuthorization', 'noProxy', 'proxyStrictSSL', 'systemCertificates', 'proxySupport']) await setHttp(key, undefined);
    await vscode.commands.executeCommand('notifications.clearAll');
    await closeAllEditors();
  });

  suiteTeardown(async () => {
    await scanner().update('customBaseUrl', env('CODE_SCANNER_TEST_BASE_URL'), vscode.ConfigurationTarget.Global);
    await signIn();
    await proxy.close();
    await scan('codeScanner.scanWorkspace');
  });

  test('Check Connection reports the direct route to a local service, the answer and the account, with no secret', async () => {
    await scanner().update('customBaseUrl', env('CODE_SCANNER_TEST_BASE_URL'), vscode.ConfigurationTarget.Global);
    await signIn();
    const report = await vscode.commands.executeCommand<ConnectionReport>('codeScanner.checkConnection');
    assert.ok(report.ok, report.text);
    assert.match(report.text, /Route:\s+direct \(a service on this machine is never proxied\)/);
    assert.match(report.text, /GET \/verify:\s+HTTP 200 in \d+ ms/);
    assert.match(report.text, /Account:\s+signed in as /);
    assert.match(report.text, /TLS:\s+not used/);
    assert.ok(!report.text.includes(env('CODE_SCANNER_TEST_TOKEN')));
    const a = await api();
    const shown = await waitFor('the summary', () => a.notifications().find((n) => /Reached the service/.test(n.text)));
    assert.ok(shown.actions.includes('Copy Report'));
  });

  test('behind an authenticating proxy, with the CA in the system store: sign in, scan and fix through it', async () => {
    await scanner().update('customBaseUrl', remoteUrl(), vscode.ConfigurationTarget.Global);
    await setHttp('proxy', `http://${PROXY_USER}:${PROXY_PASSWORD}@127.0.0.1:${proxy.port}`);
    proxy.log.length = 0;
    const user = await vscode.commands.executeCommand('codeScanner.signIn', { token: env('CODE_SCANNER_TEST_TOKEN') });
    assert.ok(user, 'signed in through the proxy');
    const summary = await vscode.commands.executeCommand<ScanSummary>('codeScanner.scanWorkspace', FAST);
    assert.ok(summary && !summary.error, JSON.stringify(summary?.error));
    const folder = summary.folders.find((f) => f.scanId);
    assert.ok(folder && (folder.issues ?? 0) > 0, JSON.stringify(summary));
    const a = await api();
    const fixable = a.issues().find((l) => l.issue.fix && l.issue.inArchive);
    assert.ok(fixable, 'a fixable finding came through the proxy');
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.applyFix', { folderUri: fixable.folderUri, issueId: fixable.issue.id }), 1);
    await revert(fixable.uri);

    assert.ok(proxy.log.length > 0, 'requests went through the proxy');
    assert.ok(proxy.log.every((e) => e.method === 'CONNECT' && e.target === `${TEST_HOST}:${env('CODE_SCANNER_TEST_TLS_PORT')}` && e.user === PROXY_USER && e.allowed), JSON.stringify(proxy.log));

    const report = await vscode.commands.executeCommand<ConnectionReport>('codeScanner.checkConnection');
    assert.ok(report.ok, report.text);
    assert.match(report.text, new RegExp(`through the proxy 127\\.0\\.0\\.1:${proxy.port} \\(from the setting "http\\.proxy"\\), with credentials`));
    assert.match(report.text, /TLS:\s+verified/);
    assert.match(report.text, /system's trusted certificates/);
    for (const text of [report.text, await logText()]) {
      assert.ok(!text.includes(PROXY_PASSWORD), 'the proxy password is never written');
      assert.ok(!text.includes(env('CODE_SCANNER_TEST_TOKEN')), 'nor the token');
    }
  });

  test('without the system store the private CA is not trusted: the error names the host and the settings; strict SSL off relaxes it, with a warning', async () => {
    await scanner().update('customBaseUrl', remoteUrl(), vscode.ConfigurationTarget.Global);
    await setHttp('proxy', `http://${PROXY_USER}:${PROXY_PASSWORD}@127.0.0.1:${proxy.port}`);
    await setHttp('systemCertificates', false);
    const a = await api();
    const mark = a.notifications().at(-1)?.seq ?? 0;
    assert.strictEqual(await vscode.commands.executeCommand('codeScanner.signIn', { token: env('CODE_SCANNER_TEST_TOKEN') }), undefined);
    const error = await waitFor('the certificate error', () => a.notifications(mark).find((n) => n.severity === 'error'));
    assert.match(error.text, /TLS certificate of scanner\.test was not accepted/);
    assert.match(error.text, /http\.systemCertificates/);
    assert.ok(error.actions.includes('Check Connection'), error.actions.join(', '));

    await setHttp('proxyStrictSSL', false);
    assert.ok(await vscode.commands.executeCommand('codeScanner.signIn', { token: env('CODE_SCANNER_TEST_TOKEN') }), 'accepted with checking off');
    assert.match(await logText(), /"http\.proxyStrictSSL" is false: TLS certificates of the service and the proxy are not checked/);
    const report = await vscode.commands.executeCommand<ConnectionReport>('codeScanner.checkConnection');
    assert.match(report.text, /checking is OFF/);
    assert.match(report.text, /TLS:\s+connected, certificate NOT checked/);
  });

  test('http.noProxy and wrong proxy credentials: each says what happened', async () => {
    await scanner().update('customBaseUrl', remoteUrl(), vscode.ConfigurationTarget.Global);
    await setHttp('proxy', `http://${PROXY_USER}:wrong-password@127.0.0.1:${proxy.port}`);
    let report = await vscode.commands.executeCommand<ConnectionReport>('codeScanner.checkConnection');
    assert.ok(!report.ok);
    assert.match(report.text, /refused the credentials it was given \(407\)/);
    assert.ok(!report.text.includes('wrong-password'));

    await setHttp('noProxy', [TEST_HOST]);
    proxy.log.length = 0;
    report = await vscode.commands.executeCommand<ConnectionReport>('codeScanner.checkConnection');
    assert.match(report.text, /Route:\s+direct \(the address is listed in "http\.noProxy"/);
    // Only the proxy knows scanner.test: going direct, the editor cannot resolve it.
    assert.match(report.text, /host name scanner\.test could not be resolved/);
    assert.deepStrictEqual(proxy.log, []);
  });

  test('the extension runs where the workspace is (extensionKind workspace), as in code-server', async () => {
    const ext = vscode.extensions.all.find((e) => e.packageJSON.name === 'code-scanner-vscode');
    assert.ok(ext);
    assert.deepStrictEqual(ext.packageJSON.extensionKind, ['workspace']);
    assert.strictEqual(ext.extensionKind, vscode.ExtensionKind.Workspace);
  });
});
