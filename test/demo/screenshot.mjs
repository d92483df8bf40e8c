// Drives the workbench the way a person would (command palette, password box) to take
// the demo screenshot: signed in, workspace scanned, issues tree and Problems panel
// visible, a file with findings open; or the README's set (tree, hover, details in the
// dark, light and high-contrast themes).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const QUICK_INPUT = '.quick-input-widget';
const QUICK_INPUT_BOX = `${QUICK_INPUT} .quick-input-box input`;
const ISSUES_PANE = '.pane:has(.pane-header[aria-label*="Quality Issues"])';

async function quickInputVisible(page) {
  return page.locator(QUICK_INPUT).isVisible().catch(() => false);
}

async function closeQuickInput(page) {
  for (let i = 0; i < 3 && (await quickInputVisible(page)); i++) {
    await page.keyboard.press('Escape');
    await page.waitForTimeout(150);
  }
}

/** Runs a command by its palette title (e.g. "Code Scanner: Sign In"). */
export async function runCommand(page, title) {
  await closeQuickInput(page);
  await page.keyboard.press('F1');
  const input = page.locator(QUICK_INPUT_BOX);
  await input.waitFor({ state: 'visible', timeout: 15_000 });
  await input.fill(`>${title}`);
  // The row chosen must be exactly the command asked for, not a fuzzy neighbour ranked above it.
  const rows = page.locator(`${QUICK_INPUT} .monaco-list-row`);
  await rows.first().waitFor({ state: 'visible', timeout: 15_000 });
  const deadline = Date.now() + 15_000;
  for (;;) {
    const labels = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
    const at = labels.findIndex((l) => l.toLowerCase().startsWith(title.toLowerCase()));
    if (at >= 0) {
      for (let i = 0; i < at; i++) await page.keyboard.press('ArrowDown');
      break;
    }
    if (Date.now() > deadline) throw new Error(`command "${title}" is not in the command palette (shown: ${labels.slice(0, 5).join(' | ')})`);
    await page.waitForTimeout(200);
  }
  await page.keyboard.press('Enter');
}

async function waitFor(what, fn, { timeoutMs = 60_000, intervalMs = 500 } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${last.message}` : ''}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

async function completedScans(adminUrl) {
  const res = await fetch(`${adminUrl}/scans`);
  if (!res.ok) return [];
  const scans = await res.json();
  return Array.isArray(scans) ? scans : [];
}

const DIALOG = '.monaco-dialog-box';

/** Waits for the workbench's modal dialog and presses the button with this label, as a person would. */
async function answerDialog(page, label) {
  const dialog = page.locator(DIALOG);
  await dialog.waitFor({ state: 'visible', timeout: 60_000 });
  await dialog.locator('.monaco-button', { hasText: label }).first().click();
  await dialog.waitFor({ state: 'hidden', timeout: 15_000 });
}

async function notifications(page) {
  return page.locator('.notifications-toasts .notification-list-item-message').allInnerTexts().catch(() => []);
}

/** Gives the issues tree the whole side bar, wide enough to read the findings' titles. */
async function arrangeLayout(page) {
  const policies = page.locator('.pane-header[aria-label*="Policies"][aria-expanded="true"]');
  if (await policies.count()) await policies.first().click();
  const sidebar = await page.locator('.part.sidebar').boundingBox();
  if (!sidebar || sidebar.width >= 420) return;
  // Drag the sash on the side bar's right edge, as a person would.
  const edge = sidebar.x + sidebar.width;
  let best;
  for (const sash of await page.locator('.monaco-sash.vertical').all()) {
    const b = await sash.boundingBox();
    if (b && b.height > 100 && (!best || Math.abs(b.x + b.width / 2 - edge) < Math.abs(best.x + best.width / 2 - edge))) best = b;
  }
  if (!best || Math.abs(best.x + best.width / 2 - edge) > 6) return;
  const x = best.x + best.width / 2;
  const y = sidebar.y + sidebar.height / 2;
  await page.mouse.move(x, y);
  await page.waitForTimeout(300);
  await page.mouse.down();
  await page.mouse.move(x + (440 - sidebar.width), y, { steps: 10 });
  await page.mouse.up();
}

/**
 * Opens the workbench, signs in, scans the workspace (answering the first-scan question;
 * with `beforeUpload`, first choosing Preview Upload there and calling it with the preview
 * showing) and shows the tree and Problems.
 */
async function prepareWorkbench(page, { url, token, adminUrl, log, beforeUpload }) {
  log('opening the workbench');
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 120_000 });
  await page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: 120_000 });
  await page.locator('.monaco-workbench .part.activitybar').waitFor({ state: 'visible', timeout: 60_000 });
  // Let the extension host start and the extension activate (onStartupFinished).
  await page.waitForTimeout(3000);

  log('signing in through "Code Scanner: Sign In"');
  await runCommand(page, 'Code Scanner: Sign In');
  const password = page.locator(`${QUICK_INPUT} input[type="password"]`);
  await password.waitFor({ state: 'visible', timeout: 30_000 });
  await password.fill(token);
  await page.keyboard.press('Enter');
  await waitFor('the sign-in box to close', async () => !(await password.isVisible()), { timeoutMs: 30_000 });

  if (beforeUpload) {
    log('the first scan asks before uploading: choosing "Preview Upload"');
    await runCommand(page, 'Code Scanner: Scan Workspace');
    await answerDialog(page, 'Preview Upload');
    await page.locator('.pane-header[aria-label*="Upload Preview"]').waitFor({ state: 'visible', timeout: 60_000 });
    await beforeUpload();
  }
  log('scanning the workspace through "Code Scanner: Scan Workspace"');
  const before = (await completedScans(adminUrl)).length;
  await runCommand(page, 'Code Scanner: Scan Workspace');
  await answerDialog(page, 'Upload and Scan');
  await waitFor(
    'the upload to reach the reference service',
    async () => {
      const errors = (await notifications(page)).filter((t) => /fail|error|could not|cannot/i.test(t));
      if (errors.length) throw new Error(`the extension reported: ${errors.join(' | ')}`);
      return (await completedScans(adminUrl)).length > before;
    },
    { timeoutMs: 120_000 },
  );

  log('showing the issues tree and the Problems panel');
  await runCommand(page, 'Code Scanner: Focus on Quality Issues View');
  const issueRows = page.locator(`${ISSUES_PANE} .monaco-list-row`);
  await waitFor('issues in the tree', async () => (await issueRows.count()) > 1, { timeoutMs: 120_000 });

  await runCommand(page, 'View: Focus Problems');
  const problemRows = page.locator('.markers-panel .monaco-list-row');
  await waitFor('findings in the Problems panel', async () => (await problemRows.count()) > 0, { timeoutMs: 60_000 });

  await arrangeLayout(page);
}

/** Opens the first finding of the tree, as a person would, so its file is on screen with the finding selected. */
async function openFirstFinding(page) {
  const leaf = page.locator(`${ISSUES_PANE} .monaco-list-row:not([aria-expanded])`).first();
  if (!(await leaf.count())) return false;
  await leaf.click();
  await page.locator('.editor-instance .monaco-editor').first().waitFor({ state: 'visible', timeout: 15_000 }).catch(() => {});
  return true;
}

/** Toasts cover the panel; what they said is already shown in the views and status bar. */
/** Groups the issues tree (Group Issues By…), once its question is up: a webview may hold the focus a moment. */
async function groupBy(page, label) {
  await runCommand(page, 'Code Scanner: Group Issues By…');
  const input = page.locator(QUICK_INPUT_BOX);
  await input.waitFor({ state: 'visible', timeout: 15_000 });
  await input.fill(label);
  await page.waitForTimeout(300);
  await page.keyboard.press('Enter');
}

/** Opens a file of the workspace by name (Go to File), its editor focused. */
async function openFile(page, name) {
  await runCommand(page, 'Go to File...');
  await page.locator(QUICK_INPUT_BOX).fill(name);
  await page.waitForTimeout(800);
  await page.keyboard.press('Enter');
  await page.waitForTimeout(1500);
  await runCommand(page, 'View: Focus Active Editor Group');
}

async function settle(page) {
  await runCommand(page, 'Notifications: Clear All Notifications').catch(() => {});
  await closeQuickInput(page);
  await page.waitForTimeout(1500);
}

export async function takeDemoScreenshot(page, { url, token, adminUrl, file, log = (m) => console.log(`[demo] ${m}`) }) {
  await prepareWorkbench(page, { url, token, adminUrl, log });
  await openFirstFinding(page);
  await settle(page);
  await page.screenshot({ path: file });
}

/** The themes the screenshot set is taken in: the defaults people see, and high contrast. */
export const SCREENSHOT_THEMES = [
  { key: 'dark', label: 'Dark Modern' },
  { key: 'light', label: 'Light Modern' },
  { key: 'high-contrast', label: 'Dark High Contrast' },
  { key: 'high-contrast-light', label: 'Light High Contrast' },
];

async function chooseTheme(page, label) {
  await runCommand(page, 'Preferences: Color Theme');
  const input = page.locator(QUICK_INPUT_BOX);
  await input.waitFor({ state: 'visible', timeout: 15_000 });
  await input.fill(label);
  const row = page.locator(`${QUICK_INPUT} .monaco-list-row`).first();
  await waitFor(`the theme "${label}" in the list`, async () => ((await row.getAttribute('aria-label')) ?? '').includes(label), { timeoutMs: 15_000 });
  await page.keyboard.press('Enter');
  await page.waitForTimeout(1000);
}

/**
 * The screenshots of what is new, policies, the three kinds, scan on save and Fix with Chat
 * (dark theme): an eval added on disk and the workspace scanned again with "new only" on;
 * the tree grouped by policy with a violating finding's details; the tree grouped by kind
 * beside package.json with the hover on a dependency finding; a save waiting in the status
 * bar; the light bulb's Fix with Chat. The workspace is put back as it was.
 */
async function takeFeatureShots(page, { adminUrl, dir, workspace, log }) {
  const files = [];
  const shot = async (name, clip) => {
    const file = join(dir, `dark-${name}.png`);
    await page.screenshot({ path: file, ...(clip ? { clip } : {}) });
    files.push(file);
  };
  const pricing = join(workspace, 'src', 'pricing.js');
  const original = readFileSync(pricing, 'utf8');
  const settingsDir = join(workspace, '.vscode');
  try {
    log('what is new: an eval added, the workspace scanned again, "new only" on');
    writeFileSync(pricing, original.replace('function priceOrder', 'const rule = eval(process.env.PRICE_RULE);\n\nfunction priceOrder'));
    const before = (await completedScans(adminUrl)).length;
    await runCommand(page, 'Code Scanner: Scan Workspace');
    await waitFor('the second scan', async () => (await completedScans(adminUrl)).length > before, { timeoutMs: 120_000 });
    await waitFor('its summary', async () => (await notifications(page)).some((t) => /Scan finished/.test(t)), { timeoutMs: 60_000 });
    await page.waitForTimeout(1000);
    await runCommand(page, 'Code Scanner: Show Only New Issues (Toggle)');
    await runCommand(page, 'Code Scanner: Focus on Quality Issues View');
    if (!(await openFirstFinding(page))) throw new Error('no new finding in the tree');
    await page.waitForTimeout(1500);
    await shot('new');
    await runCommand(page, 'Code Scanner: Show Only New Issues (Toggle)');
    await settle(page);

    log('the company\'s policies: the tree grouped by policy, a violation\'s details');
    await groupBy(page, 'Policy');
    await runCommand(page, 'View: Close All Editors');
    if (!(await openFirstFinding(page))) throw new Error('no finding in the policy groups');
    await runCommand(page, 'View: Focus Active Editor Group');
    await runCommand(page, 'Code Scanner: Show Finding Details');
    await page.locator('.editor-instance iframe.webview, .webview.ready').first().waitFor({ state: 'attached', timeout: 15_000 });
    await page.waitForTimeout(2000);
    await shot('policies');
    await groupBy(page, 'File');
    await runCommand(page, 'View: Close All Editors');

    log('the three kinds: the tree grouped by kind beside the manifest, its dependency findings on their lines');
    await groupBy(page, 'Kind');
    await openFile(page, 'package.json');
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('Control+F');
    await page.keyboard.type('"lodash"');
    await page.keyboard.press('Escape');
    await runCommand(page, 'Show or Focus Hover');
    await page.waitForTimeout(1500);
    await shot('kinds');
    await page.keyboard.press('Escape');
    await groupBy(page, 'File');
    await runCommand(page, 'View: Close All Editors');

    log('scan on save: a save waits in the status bar for a quiet moment');
    mkdirSync(settingsDir, { recursive: true });
    writeFileSync(join(settingsDir, 'settings.json'), '{ "codeScanner.scanOnSave": "savedFiles" }\n');
    await page.waitForTimeout(1500);
    // A source file (the first finding may be in package.json, a dependency's).
    await openFile(page, 'pricing.js');
    await page.keyboard.press('End');
    await page.keyboard.type(' ');
    await page.keyboard.press('Control+S');
    // A repository's own settings turn scan on save on: the person is asked first.
    const allow = page.getByRole('button', { name: 'Allow Scan on Save' });
    await allow.waitFor({ state: 'visible', timeout: 10_000 }).then(() => allow.click(), () => undefined);
    const bar = page.locator('.part.statusbar');
    await waitFor('the saved file in the status bar', async () => /saved file|Scanning/.test((await bar.textContent()) ?? ''), { timeoutMs: 10_000 })
      .catch(async (e) => { await page.screenshot({ path: join(dir, 'failed-scan-on-save.png') }); throw e; });
    const box = await bar.boundingBox();
    await shot('scan-on-save', box ? { x: 0, y: Math.max(0, box.y - 260), width: 1600, height: 260 + box.height } : undefined);
    await page.waitForTimeout(8000);
    // The space taken back and saved with scan on save off again: the file is as it was.
    rmSync(settingsDir, { recursive: true, force: true });
    await page.waitForTimeout(1500);
    await runCommand(page, 'View: Focus Active Editor Group');
    await page.keyboard.press('Control+Z');
    await page.keyboard.press('Control+S');

    log('Fix with Chat in the light bulb');
    await runCommand(page, 'View: Close All Editors');
    if (!(await openFirstFinding(page))) throw new Error('no finding to open');
    await runCommand(page, 'View: Focus Active Editor Group');
    await page.keyboard.press('Control+.');
    await page.locator('.action-widget, .context-view .monaco-list').first().waitFor({ state: 'visible', timeout: 15_000 });
    await page.waitForTimeout(800);
    await shot('quick-fix');
    await page.keyboard.press('Escape');
  } finally {
    writeFileSync(pricing, original);
    rmSync(settingsDir, { recursive: true, force: true });
    await runCommand(page, 'File: Revert File').catch(() => {});
    await runCommand(page, 'View: Close All Editors').catch(() => {});
    await settle(page);
  }
  return files;
}

/**
 * The README's screenshots: in each theme, the issues tree with Problems and a finding's
 * file; the hover on that finding; its details view. One session, one scan.
 */
export async function takeScreenshotSet(page, { url, token, adminUrl, dir, workspace, log = (m) => console.log(`[demo] ${m}`) }) {
  const files = [];
  // What leaves the machine, before anything does: the Upload Preview, a folder opened.
  const previewShot = async () => {
    await arrangeLayout(page);
    // The preview gets the side bar: Quality Issues (empty before the first scan) folds away.
    const issuesHeader = page.locator('.pane-header[aria-label*="Quality Issues"][aria-expanded="true"]');
    if (await issuesHeader.count()) await issuesHeader.first().click();
    const rows = page.locator('.pane:has(.pane-header[aria-label*="Upload Preview"]) .monaco-list-row[aria-expanded="false"]');
    await waitFor('folders in the Upload Preview', async () => (await rows.count()) > 0, { timeoutMs: 60_000 });
    // "Left out" and its reasons, opened.
    for (let i = 0; i < 3; i++) {
      const closed = page.locator('.pane:has(.pane-header[aria-label*="Upload Preview"]) .monaco-list-row[aria-expanded="false"]');
      const labels = await closed.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
      const at = labels.findIndex((l) => /left out|ignored|credential/i.test(l));
      if (at < 0) break;
      await closed.nth(at).click();
      await page.waitForTimeout(300);
    }
    await page.mouse.move(900, 700);
    await page.waitForTimeout(1000);
    const file = join(dir, 'dark-upload-preview.png');
    await page.screenshot({ path: file });
    files.push(file);
    await runCommand(page, 'Code Scanner: Close Upload Preview');
    const folded = page.locator('.pane-header[aria-label*="Quality Issues"][aria-expanded="false"]');
    if (await folded.count()) await folded.first().click();
  };
  await prepareWorkbench(page, { url, token, adminUrl, log, beforeUpload: previewShot });
  // Apply All Fixes…: its question (what would change), then "Review in Preview…": every
  // fix in VS Code's refactor preview under its own name, before anything changes.
  log('asking "Code Scanner: Apply All Fixes…"');
  await runCommand(page, 'Code Scanner: Apply All Fixes…');
  await page.locator(DIALOG).waitFor({ state: 'visible', timeout: 60_000 });
  await page.waitForTimeout(800);
  const askFile = join(dir, 'dark-apply-all.png');
  await page.screenshot({ path: askFile });
  files.push(askFile);
  await answerDialog(page, 'Review in Preview');
  const preview = page.locator('.bulk-edit-panel, .pane:has(.pane-header[aria-label*="Refactor Preview"])').first();
  await preview.waitFor({ state: 'visible', timeout: 60_000 });
  // Grouped by fix (the extension asks the preview for that): each entry headed by its name.
  await waitFor('the fixes under their names', async () => (await page.locator('.bulk-edit-panel .monaco-tl-contents.category').count()) > 0, { timeoutMs: 15_000 });
  // The pointer off the panel's tabs (the dialog's button was there), so no tooltip covers it.
  await page.mouse.move(900, 300);
  await page.waitForTimeout(1500);
  const refactorFile = join(dir, 'dark-refactor-preview.png');
  await page.screenshot({ path: refactorFile });
  files.push(refactorFile);
  // Its Discard button, as a person would: nothing changes.
  await page.locator('.bulk-edit-panel .monaco-button', { hasText: 'Discard' }).first().click();
  await settle(page);
  if (workspace) files.push(...(await takeFeatureShots(page, { adminUrl, dir, workspace, log })));
  for (const theme of SCREENSHOT_THEMES) {
    log(`taking the ${theme.label} screenshots`);
    await chooseTheme(page, theme.label);
    await runCommand(page, 'View: Close All Editors');
    if (!(await openFirstFinding(page))) throw new Error('the issues tree has no finding to open');
    await settle(page);
    const shot = async (name) => {
      const file = join(dir, `${theme.key}-${name}.png`);
      await page.screenshot({ path: file });
      files.push(file);
    };
    await shot('tree');

    await runCommand(page, 'View: Focus Active Editor Group');
    await runCommand(page, 'Show or Focus Hover');
    await page.locator('.monaco-hover').first().waitFor({ state: 'visible', timeout: 15_000 });
    await page.waitForTimeout(800);
    await shot('hover');
    await page.keyboard.press('Escape');

    await runCommand(page, 'View: Focus Active Editor Group');
    await runCommand(page, 'Code Scanner: Show Finding Details');
    await page.locator('.editor-instance iframe.webview, .webview.ready').first().waitFor({ state: 'attached', timeout: 15_000 });
    await page.waitForTimeout(2000);
    await shot('details');
  }
  return files;
}
