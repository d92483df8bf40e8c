// Sign in verifies the token with the service before storing it in SecretStorage; a
// rejected token is never stored; requests are logged without the token.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { api, env, quickInput, signIn, waitFor } from './helpers';

/** The tooltip's text with Markdown escapes removed. */
function tooltipText(item: vscode.StatusBarItem): string {
  const t = item.tooltip;
  return (typeof t === 'string' ? t : t?.value ?? '').replace(/\\(.)/g, '$1');
}

interface ServiceRequest { method: string; route: string | null; status: number; auth: string; source: string | null }

async function serviceRequests(): Promise<ServiceRequest[]> {
  const res = await fetch(`${env('CODE_SCANNER_TEST_ADMIN_URL')}/requests`);
  assert.strictEqual(res.status, 200);
  return await res.json() as ServiceRequest[];
}

interface User { name: string; email: string; company?: string }

function readLogs(dir: string): string {
  if (!fs.existsSync(dir)) return '';
  return fs.readdirSync(dir, { recursive: true }).map(String)
    .filter((f) => f.endsWith('.log'))
    .map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join('\n');
}

suite('editor: sign-in', () => {
  suiteTeardown(async () => { await signIn(); });

  test('Sign Out removes the token from SecretStorage', async () => {
    const a = await api();
    await signIn();
    assert.strictEqual(await a.hasStoredToken(), true);
    await vscode.commands.executeCommand('codeScanner.signOut', { confirmed: true });
    assert.strictEqual(await a.hasStoredToken(), false);
    assert.match(tooltipText(a.statusBar), /Not signed in/);
  });

  test('a key the service rejects keeps the box open with why; the right key then signs in', async function () {
    const a = await api();
    await vscode.commands.executeCommand('codeScanner.signOut', { confirmed: true });
    let done = false;
    const signing = Promise.resolve(vscode.commands.executeCommand<User | undefined>('codeScanner.signIn')).finally(() => { done = true; });
    const opened = await waitFor('the API key box', async () => (await quickInput())?.visible ?? this.skip());
    assert.ok(opened);
    // The box shows its prompt in the same place until the service has answered (later than
    // the probe's read on a busy machine), so only the refusal's own words end the wait.
    await quickInput({ type: 'not-a-valid-key-0000', enter: true });
    const refused = await waitFor('the refusal under the box', async () => {
      const q = await quickInput();
      return q && /rejected/.test(q.message) ? q : undefined;
    }, 30_000);
    assert.match(refused.message, /The service rejected this API key/);
    assert.strictEqual(refused.visible, true, 'the box stays open to correct the key');
    assert.strictEqual(done, false);
    assert.strictEqual(await a.hasStoredToken(), false);
    await quickInput({ type: env('CODE_SCANNER_TEST_TOKEN'), enter: true });
    const user = await signing;
    assert.ok(user?.name, 'signed in');
    assert.strictEqual((await quickInput())?.visible, false);
    assert.strictEqual(await a.hasStoredToken(), true);
  });

  test('a token the service rejects is not stored', async () => {
    const a = await api();
    await vscode.commands.executeCommand('codeScanner.signOut', { confirmed: true });
    const user = await vscode.commands.executeCommand('codeScanner.signIn', { token: 'not-a-valid-token-0000' });
    assert.strictEqual(user, undefined);
    assert.strictEqual(await a.hasStoredToken(), false);
  });

  test('a valid token is verified with GET /verify?user_info=true, then stored; the user is shown', async () => {
    const a = await api();
    const token = env('CODE_SCANNER_TEST_TOKEN');
    const res = await fetch(`${env('CODE_SCANNER_TEST_BASE_URL')}/verify?user_info=true`, { headers: { 'SERVICE-TOKEN': token } });
    const expected = (await res.json() as { user: { id: number; name: string; email: string; company: { id: number; name: string } } }).user;

    const requestsBefore = await serviceRequests();
    const user = await vscode.commands.executeCommand<User>('codeScanner.signIn', { token });
    // The user's details come back only with user_info=true.
    assert.deepStrictEqual(user, { id: String(expected.id), name: expected.name, email: expected.email, company: expected.company.name, companyId: String(expected.company.id) });
    assert.strictEqual(await a.hasStoredToken(), true);
    const verify = (await serviceRequests()).slice(requestsBefore.length).filter((r) => r.route === 'verify');
    assert.deepStrictEqual(verify.map((r) => [r.method, r.status, r.auth, r.source]), [['GET', 200, 'api-key', 'vscode']], 'one verify request, from the extension');

    await waitFor('the status bar tooltip to name the user', () => tooltipText(a.statusBar).includes(expected.email));
    assert.ok(tooltipText(a.statusBar).includes(expected.name));
    assert.ok(tooltipText(a.statusBar).includes(expected.company.name));

    const settings = JSON.stringify(vscode.workspace.getConfiguration('codeScanner'));
    assert.ok(!settings.includes(token), 'the token must not be in settings');
  });

  test('each request is logged (method, path, status, duration) and the token never is', async () => {
    const a = await api();
    const token = env('CODE_SCANNER_TEST_TOKEN');
    const text = await waitFor('the verify request in the log', () => {
      const t = readLogs(a.logUri.fsPath);
      return /GET \S*\/verify 200 \d+ ms/.test(t) && t;
    });
    assert.match(text, /GET \S*\/verify 401 \d+ ms/, 'the rejected attempt is logged too');
    assert.ok(!text.includes(token), 'the log must not contain the token');
  });
});
