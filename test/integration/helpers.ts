// Shared by the editor's integration tests (bundled into each test file; not a test itself).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { CodeScannerApi } from '../../src/extension';
import type { IssueTreeNode } from '../../src/editor/results/issuesTree';
import type { LocatedIssue } from '../../src/editor/results/resultsStore';
import type { ScanSummary } from '../../src/editor/scan/scanController';

export type { ScanSummary } from '../../src/editor/scan/scanController';

export const EXTENSION_ID = 'code-scanner.code-scanner-vscode';
/**
 * Polling for tests: the launcher's reference service finishes a scan in about 300 ms, so
 * polls 400 ms apart see its findings grow and settle in about a second, even on a busy machine.
 */
export const FAST = { pollIntervalMs: 400, maxPolls: 60 };

export function env(name: string): string {
  const v = process.env[name];
  assert.ok(v, `${name} is not set: the launcher passes it via extensionEnvironment`);
  return v;
}

export async function api(): Promise<CodeScannerApi> {
  const ext = vscode.extensions.getExtension<CodeScannerApi>(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is not installed`);
  return ext.activate();
}

export function workspaceRoot(): string {
  return env('CODE_SCANNER_TEST_WORKSPACE');
}

/**
 * The launcher opens a multi-root workspace: the fixture (first folder, most tests' subject)
 * and a small second folder (CODE_SCANNER_TEST_SECOND_FOLDER) with findings of its own.
 */
export function folderUriOf(fsPath: string): string {
  const folder = (vscode.workspace.workspaceFolders ?? []).find((f) => f.uri.fsPath === fsPath);
  assert.ok(folder, `${fsPath} is not a folder of the workspace`);
  return folder.uri.toString();
}

/** The fixture folder's findings in the store. */
export function fixtureIssues(a: CodeScannerApi): LocatedIssue[] {
  const folderUri = folderUriOf(workspaceRoot());
  return a.issues().filter((l) => l.folderUri === folderUri);
}

/**
 * A diagnostic with its code as text: codes of CWE classifications carry a link target
 * ({ value, target }), which the checks of a finding's classification do not care about.
 */
export type TestDiagnostic = Omit<vscode.Diagnostic, 'code'> & { code: string; original: vscode.Diagnostic };

function withTextCode(d: vscode.Diagnostic): TestDiagnostic {
  const code = typeof d.code === 'object' ? String(d.code.value) : String(d.code ?? '');
  return { range: d.range, message: d.message, severity: d.severity, source: d.source, relatedInformation: d.relatedInformation, tags: d.tags, code, original: d };
}

/** Our diagnostics of files in `root` (the fixture folder by default). */
export function diagnosticsUnder(root = workspaceRoot()): TestDiagnostic[] {
  return vscode.languages.getDiagnostics()
    .filter(([uri]) => uri.fsPath.startsWith(root + path.sep))
    .flatMap(([, ds]) => ds)
    .filter((d) => d.source === 'Code Scanner')
    .map(withTextCode);
}

/** The tree's top level for one folder: its groups, under its folder node when several folders have results. */
export function treeRootsOf(a: CodeScannerApi, root = workspaceRoot()): IssueTreeNode[] {
  const top = a.issuesTree.getChildren();
  if (!top.some((n) => n.kind === 'folder')) return top;
  const node = top.find((n) => n.kind === 'folder' && n.folderUri === folderUriOf(root));
  return node ? a.issuesTree.getChildren(node) : [];
}

export function fileUri(rel: string): vscode.Uri {
  return vscode.Uri.file(path.join(workspaceRoot(), ...rel.split('/')));
}

/** Signs in with the suite's token, or another the test names. */
export async function signIn(token = env('CODE_SCANNER_TEST_TOKEN')): Promise<void> {
  const user = await vscode.commands.executeCommand('codeScanner.signIn', { token });
  assert.ok(user, 'signing in with the test token failed');
}


export async function scan(command: 'codeScanner.scanWorkspace' | 'codeScanner.scanOpenFiles' | 'codeScanner.scanChangedFiles', options: Record<string, unknown> = {}): Promise<string> {
  const summary = await vscode.commands.executeCommand<ScanSummary | undefined>(command, { ...FAST, ...options });
  assert.ok(summary, `${command} did not run (see the notifications in the log)`);
  assert.ok(!summary.error, `${command} failed: ${summary.error?.kind}: ${summary.error?.message}`);
  const scanId = summary.folders[0]?.scanId;
  assert.ok(scanId, `${command} produced no scan: ${JSON.stringify(summary)}`);
  return scanId;
}

/**
 * What the service itself reports for a scan, fetched directly (every page of its three
 * lists), each finding in the code quality shape under the key the editor gives it: a
 * dependency finding named as the editor names it, on the line of its manifest in the
 * workspace that names its package (decisions.md, "A dependency finding").
 */
export interface WireIssue {
  /** The editor's key (the service's id of a code quality finding; prefixed by its list otherwise). */
  id: string;
  kind: 'security' | 'quality' | 'dependency';
  /** The code of its diagnostic in Problems: `list/classification`. */
  code: string;
  classification: { id: string; name: string };
  urgency: string;
  location: { file: { path: string }; line_number: number };
  auto_triage?: { false_positive_detection?: { status: string } };
  auto_fix_suggestion?: { patch?: { diff: string; explanation: string } } | null;
  package?: { name: string; version: string; ecosystem: string; fix_version?: string | null };
}

interface RawDependency { id: string | number; description?: string | null; severity?: string | null; classification?: string | null; cve?: string | null; package: { name: string; version: string; ecosystem: string; fix_version?: string | null }; location: { path: string } }

async function listOf<T>(scanId: string, route: string, classification?: string): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; ; page++) {
    const q = new URLSearchParams({ page: String(page), page_size: '50' });
    if (classification) q.set('classification', classification);
    const res = await fetch(`${env('CODE_SCANNER_TEST_BASE_URL')}/scan/${encodeURIComponent(scanId)}/${route}?${q}`, {
      // Both key headers, as the extension sends them: real answers read only CORGEA-TOKEN.
      headers: { 'SERVICE-TOKEN': env('CODE_SCANNER_TEST_TOKEN'), 'CORGEA-TOKEN': env('CODE_SCANNER_TEST_TOKEN') },
    });
    assert.strictEqual(res.status, 200, `GET ${route} of ${scanId}: HTTP ${res.status}`);
    const body = await res.json() as { issues: T[]; total_pages: number };
    out.push(...body.issues);
    if (page >= body.total_pages) return out;
  }
}

/** `lists`: which of the scan's lists (all three by default); `root`: where its manifests are read. */
export async function serviceIssues(scanId: string, classification?: string, o: { lists?: WireIssue['kind'][]; root?: string } = {}): Promise<WireIssue[]> {
  const lists = o.lists ?? ['security', 'quality', 'dependency'];
  const out: WireIssue[] = [];
  type Code = Omit<WireIssue, 'id' | 'kind' | 'code'> & { id: string | number };
  for (const kind of ['security', 'quality'] as const) {
    if (!lists.includes(kind)) continue;
    for (const i of await listOf<Code>(scanId, kind === 'security' ? 'issues' : 'issues/quality', classification)) {
      out.push({ ...i, id: kind === 'quality' ? String(i.id) : `security:${i.id}`, kind, code: `${kind}/${i.classification.id}` });
    }
  }
  if (lists.includes('dependency') && !classification) {
    for (const d of await listOf<RawDependency>(scanId, 'issues/sca')) {
      const malicious = d.classification?.toLowerCase() === 'malicious';
      const id = d.cve ?? (malicious ? 'malicious' : d.classification ?? 'vulnerable-dependency');
      const text = fs.readFileSync(path.join(o.root ?? workspaceRoot(), ...d.location.path.split('/')), 'utf8').split(/\r?\n/);
      const at = text.findIndex((l) => l.includes(`"${d.package.name}"`));
      out.push({
        id: `dependency:${d.id}`, kind: 'dependency', code: `dependency/${id}`,
        classification: { id, name: malicious ? `Malicious package ${d.package.name}` : d.description ?? `Vulnerable package ${d.package.name}` },
        urgency: malicious ? 'critical' : d.severity ?? 'unknown',
        location: { file: { path: d.location.path }, line_number: at + 1 || 1 },
        package: d.package,
      });
    }
  }
  return out;
}

export interface AdminScan { id: string; archiveName: string; archivePath: string; partial: boolean; filesToScan: string[]; files: string[]; clientSource: string; createdAt: string; status: string; formParts: Record<string, string> }

export async function fault(body: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${env('CODE_SCANNER_TEST_ADMIN_URL')}/faults`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  assert.strictEqual(res.status, 200, `fault ${JSON.stringify(body)}: HTTP ${res.status} ${await res.text()}`);
}

/** Every API request the reference service answered so far (route, status, auth scheme). */
export interface AdminRequest { method: string; path: string; route: string | null; status: number; auth: string; at: string }

export async function adminRequests(): Promise<AdminRequest[]> {
  const res = await fetch(`${env('CODE_SCANNER_TEST_ADMIN_URL')}/requests`);
  assert.strictEqual(res.status, 200);
  return await res.json() as AdminRequest[];
}

export async function adminScans(): Promise<AdminScan[]> {
  const res = await fetch(`${env('CODE_SCANNER_TEST_ADMIN_URL')}/scans`);
  assert.strictEqual(res.status, 200);
  return await res.json() as AdminScan[];
}

export async function adminScan(id: string): Promise<AdminScan> {
  const scan = (await adminScans()).find((s) => s.id === id);
  assert.ok(scan, `the service has no scan ${id}`);
  return scan;
}

export async function waitFor<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The helper process git runs from on Linux (programRunner.ts), among this extension
 * host's children: its pid, or undefined.
 */
export function gitHelperOfHost(): number | undefined {
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The parent is the 4th field of stat, after the command name in parentheses.
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== process.pid) continue;
      if (fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').startsWith('code-scanner-git-helper')) return Number(name);
    } catch {
      // a process that ended meanwhile
    }
  }
  return undefined;
}

/** A finding's code in Problems, as the editor gives it: its list and classification. */
export function codeOf(issue: { kind?: string; classificationId: string }): string {
  return `${issue.kind ?? 'quality'}/${issue.classificationId}`;
}

export function ourDiagnostics(uri: vscode.Uri): TestDiagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'Code Scanner').map(withTextCode);
}

export async function closeAllEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

/** Drops unsaved changes of a file the test edited, so later tests see the file on disk. */
export async function revert(uri: vscode.Uri): Promise<void> {
  await vscode.window.showTextDocument(uri);
  await vscode.commands.executeCommand('workbench.action.files.revert');
}

/** Adds raw issues (any shape) to a scan on the reference service. */
/** Adds findings of any shape to a scan's list (the code quality list unless told). */
export async function injectIssues(scanId: string, issues: unknown[], list: WireIssue['kind'] = 'quality'): Promise<void> {
  const res = await fetch(`${env('CODE_SCANNER_TEST_ADMIN_URL')}/scans/${encodeURIComponent(scanId)}/issues`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ issues, list }),
  });
  const text = await res.text();
  assert.strictEqual(res.status, 200, `inject issues: HTTP ${res.status} ${text}`);
}

export interface ProbedToast { text: string; links: { text: string; href: string }[] }

/**
 * The notification toasts the workbench shows, with the links it rendered in them, as the
 * offline launcher reads them from the page; undefined where no launcher offers this
 * (the desktop launcher), in which case tests check the text they were given instead.
 */
export async function visibleToasts(): Promise<ProbedToast[] | undefined> {
  const url = process.env.CODE_SCANNER_TEST_WORKBENCH_PROBE;
  if (!url) return undefined;
  // Headless, the workbench shows no toasts; the notification center lists them all.
  await vscode.commands.executeCommand('notifications.showList');
  try {
    await new Promise((r) => setTimeout(r, 300));
    const res = await fetch(`${url}/notifications`);
    const text = await res.text();
    assert.strictEqual(res.status, 200, `workbench probe: HTTP ${res.status} ${text}`);
    return JSON.parse(text) as ProbedToast[];
  } finally {
    await vscode.commands.executeCommand('notifications.hideList');
  }
}

/**
 * Switches how the reference service shapes its answers (decisions.md; `gone` answers 410);
 * `processingMs` sets how long its scans run (null: its default).
 */
export async function setAnswerMode(mode: { shapes?: 'seed' | 'real'; gone?: boolean; processingMs?: number | null; lists?: WireIssue['kind'][] | null }): Promise<void> {
  const res = await fetch(`${env('CODE_SCANNER_TEST_ADMIN_URL')}/mode`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(mode),
  });
  const text = await res.text();
  assert.strictEqual(res.status, 200, `answer mode ${JSON.stringify(mode)}: HTTP ${res.status} ${text}`);
}

/** The reference service ends every running scan's processing now (scans held by a long `processingMs`); returns their ids. */
export async function finishRunningScans(): Promise<string[]> {
  const admin = env('CODE_SCANNER_TEST_ADMIN_URL');
  const running = (await adminScans()).filter((s) => s.status === 'running').map((s) => s.id);
  for (const id of running) {
    const res = await fetch(`${admin}/scans/${encodeURIComponent(id)}/finish`, { method: 'POST' });
    const text = await res.text();
    // 409: it ended by itself meanwhile.
    assert.ok(res.status === 200 || res.status === 409, `finish scan ${id}: HTTP ${res.status} ${text}`);
  }
  return running;
}

/** Everything the extension's log files hold now (the Code Scanner output channel). */
export async function logText(): Promise<string> {
  const dir = (await api()).logUri;
  let text = '';
  for (const [name] of await vscode.workspace.fs.readDirectory(dir)) {
    if (name.endsWith('.log')) text += Buffer.from(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(dir, name))).toString('utf8');
  }
  return text;
}

/**
 * As a new user has it: the first-scan question on and no answer remembered. Gives the
 * service's scan count and the log so far, to show that nothing was sent and what was asked.
 * (The launcher turns the question off for every other test; turn it off again after.)
 */
export async function askFirstScanAgain(): Promise<{ scansBefore: number; logBefore: string }> {
  await vscode.workspace.getConfiguration('codeScanner').update('confirmFirstUpload', true, vscode.ConfigurationTarget.Global);
  await (await api()).forgetUploadConsent();
  return { scansBefore: (await adminScans()).length, logBefore: await logText() };
}

/** How the reference service's next scans end: failed with a reason, or complete with scan_errors. */
export async function planScanOutcome(outcome: { failedReason?: string; scanErrors?: unknown[]; count?: number; project?: string }): Promise<void> {
  const res = await fetch(`${env('CODE_SCANNER_TEST_ADMIN_URL')}/scan-outcomes`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(outcome),
  });
  assert.strictEqual(res.status, 200, `scan outcome ${JSON.stringify(outcome)}: HTTP ${res.status} ${await res.text()}`);
}

/** The status bar's texts seen while `work` runs, sampled every few milliseconds. */
export async function statusBarTexts<T>(work: Promise<T>): Promise<{ result: T; seen: string[] }> {
  const a = await api();
  const seen = new Set<string>();
  let done = false;
  const finished = work.finally(() => { done = true; });
  while (!done) {
    seen.add(a.statusBar.text);
    await new Promise((r) => setTimeout(r, 20));
  }
  seen.add(a.statusBar.text);
  return { result: await finished, seen: [...seen] };
}

/** Asks the offline launcher's workbench probe (`path` with its query); undefined where there is none (the desktop launcher). */
async function probe<T>(pathAndQuery: string): Promise<T | undefined> {
  const url = process.env.CODE_SCANNER_TEST_WORKBENCH_PROBE;
  if (!url) return undefined;
  const res = await fetch(`${url}${pathAndQuery}`);
  const text = await res.text();
  assert.strictEqual(res.status, 200, `workbench probe: HTTP ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

export interface ProbedQuickInput { visible: boolean; rows: string[]; value: string; placeholder?: string; message: string; title: string }

/**
 * The quick input the workbench shows (an input box or a pick), as the offline launcher reads
 * it from the page; with `type`, it is filled first, and with `enter`, Enter is pressed.
 * Undefined where no launcher offers this (the desktop launcher).
 */
export async function quickInput(o: { type?: string; enter?: boolean } = {}): Promise<ProbedQuickInput | undefined> {
  const q = new URLSearchParams();
  if (o.type !== undefined) q.set('type', o.type);
  if (o.enter) q.set('enter', '1');
  return probe<ProbedQuickInput>(`/quickinput?${q}`);
}

export interface ProbedDialog { visible: boolean; message: string; detail: string; buttons: string[] }

/** The modal dialog the workbench shows; with `click`, that button is pressed. Undefined without a probe. */
export async function dialog(click?: string): Promise<ProbedDialog | undefined> {
  return probe<ProbedDialog>(`/dialog${click ? `?click=${encodeURIComponent(click)}` : ''}`);
}

/**
 * The rows a view shows (found by its title), as the offline launcher reads them; undefined
 * without a probe. A list draws only the rows it has room for: `alone` first collapses the
 * other panes of the side bar (earlier tests leave Upload Preview or Policies open).
 */
export async function viewRows(title: string, o: { expand?: string; alone?: boolean } = {}): Promise<string[] | undefined> {
  return probe<string[]>(`/rows?view=${encodeURIComponent(title)}${o.expand ? `&expand=${encodeURIComponent(o.expand)}` : ''}${o.alone ? '&alone=1' : ''}`);
}

/** A view's welcome content as shown (empty: none shown); undefined where the launcher has no workbench probe. */
export async function viewWelcome(title: string): Promise<string | undefined> {
  return probe<string>(`/welcome?view=${encodeURIComponent(title)}`);
}

/** Adds policies to the reference service's company 1 (the test token's) and returns their ids; `remove` takes them away. */
export async function adminPolicies(body: { add?: Record<string, unknown>[]; remove?: number[] }): Promise<number[]> {
  const res = await fetch(`${env('CODE_SCANNER_TEST_ADMIN_URL')}/policies`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...body, add: body.add?.map((p) => ({ company: 1, ...p })) }),
  });
  const text = await res.text();
  assert.strictEqual(res.status, 200, `policies ${JSON.stringify(body)}: HTTP ${res.status} ${text}`);
  return (JSON.parse(text) as { added: number[] }).added;
}

/** The finding details page as the offline launcher reads it: focus and live region; `click` presses a button first. */
export interface ProbedDetails { open: boolean; title?: string; focused?: string; live?: string }

export async function detailsPage(o: { click?: string } = {}): Promise<ProbedDetails | undefined> {
  return probe<ProbedDetails>(`/details${o.click ? `?click=${encodeURIComponent(o.click)}` : ''}`);
}

/** What has keyboard focus in the workbench: a view's title and the row focused in it. Undefined without a probe. */
export async function focused(): Promise<{ view: string; row: string } | undefined> {
  return probe<{ view: string; row: string }>('/focused');
}

/**
 * Opens the context menu of what has focus by keyboard (Shift+F10) and chooses the entry
 * that starts with `item` (Down, Enter): what it listed and what it chose. Undefined without a probe.
 */
export async function contextMenu(item: string): Promise<{ opened: boolean; items: string[]; chosen?: string } | undefined> {
  return probe<{ opened: boolean; items: string[]; chosen?: string }>(`/contextmenu?item=${encodeURIComponent(item)}`);
}

/** Presses keys in the workbench as a person would (e.g. `Control+Alt+Enter`); false without a probe. */
export async function pressKeys(key: string): Promise<boolean> {
  const url = process.env.CODE_SCANNER_TEST_WORKBENCH_PROBE;
  if (!url) return false;
  const res = await fetch(`${url}/press?key=${encodeURIComponent(key)}`);
  assert.strictEqual(res.status, 200, `workbench probe: HTTP ${res.status} ${await res.clone().text()}`);
  return true;
}

/** Types `text` where the focus is, a key at a time, as a person does; false without a probe. */
export async function typeText(text: string): Promise<boolean> {
  return (await probe<{ typed: boolean }>(`/type?text=${encodeURIComponent(text)}`))?.typed ?? false;
}

/** The chat view's input as the workbench shows it: its text, and whether it has the focus. Undefined without a probe. */
export async function chatInput(): Promise<{ visible: boolean; input: string; focused: boolean } | undefined> {
  return probe<{ visible: boolean; input: string; focused: boolean }>('/chat');
}

/** Saves what the workbench shows now as a PNG at `file`; false without a probe (the desktop launcher). */
export async function screenshot(file: string): Promise<boolean> {
  return (await probe<{ path: string }>(`/screenshot?path=${encodeURIComponent(file)}`)) !== undefined;
}

/**
 * Presses the button `label` of a notification as a person would (in the notification
 * center); false when no notification shows that button. Undefined without a probe.
 */
export async function clickNotification(label: string): Promise<boolean | undefined> {
  if (!process.env.CODE_SCANNER_TEST_WORKBENCH_PROBE) return undefined;
  await vscode.commands.executeCommand('notifications.showList');
  try {
    await new Promise((r) => setTimeout(r, 300));
    return (await probe<{ clicked: boolean }>(`/notifications?click=${encodeURIComponent(label)}`))?.clicked;
  } finally {
    await vscode.commands.executeCommand('notifications.hideList');
  }
}

/** Keeps what a person sees now as `name`.png in CODE_SCANNER_TEST_ARTEFACTS, when the launcher names that folder. */
export async function keepArtefact(name: string): Promise<void> {
  const dir = process.env.CODE_SCANNER_TEST_ARTEFACTS;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  await new Promise((r) => setTimeout(r, 600));
  assert.ok(await screenshot(path.join(dir, `${name}.png`)), `screenshot ${name}`);
}

/**
 * Keeps a screenshot of what the workbench shows now, in the dark theme the README uses, as
 * `name`.png in CODE_SCANNER_TEST_SCREENSHOTS when that is set (artefacts, or the README's
 * pictures); with `notifications`, the notification center is open in it. Nothing otherwise.
 */
export async function keepScreenshot(name: string, o: { notifications?: boolean } = {}): Promise<void> {
  const dir = process.env.CODE_SCANNER_TEST_SCREENSHOTS;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  const workbench = vscode.workspace.getConfiguration('workbench');
  const theme = workbench.inspect<string>('colorTheme')?.globalValue;
  await workbench.update('colorTheme', 'Default Dark Modern', vscode.ConfigurationTarget.Global);
  if (o.notifications) await vscode.commands.executeCommand('notifications.showList');
  try {
    await new Promise((r) => setTimeout(r, 800));
    await screenshot(path.join(dir, `${name}.png`));
  } finally {
    if (o.notifications) await vscode.commands.executeCommand('notifications.hideList');
    await workbench.update('colorTheme', theme, vscode.ConfigurationTarget.Global);
  }
}
