// Drives the workbench the way a person would (command palette, password box) to take
// the demo screenshot: signed in, workspace scanned, issues tree and Problems panel
// visible, a file with findings open.

const QUICK_INPUT = '.quick-input-widget';
const QUICK_INPUT_BOX = `${QUICK_INPUT} .quick-input-box input`;

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
  // The first row must be exactly the command asked for, not a fuzzy neighbour.
  const row = page.locator(`${QUICK_INPUT} .monaco-list-row`).first();
  await row.waitFor({ state: 'visible', timeout: 15_000 });
  const deadline = Date.now() + 15_000;
  for (;;) {
    const label = (await row.getAttribute('aria-label').catch(() => '')) ?? '';
    if (label.toLowerCase().startsWith(title.toLowerCase())) break;
    if (Date.now() > deadline) throw new Error(`command "${title}" is not in the command palette (first match: "${label}")`);
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

export async function takeDemoScreenshot(page, { url, token, adminUrl, file, log = (m) => console.log(`[demo] ${m}`) }) {
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

  log('scanning the workspace through "Code Scanner: Scan Workspace"');
  const before = (await completedScans(adminUrl)).length;
  await runCommand(page, 'Code Scanner: Scan Workspace');
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
  const issueRows = page.locator('.pane:has(.pane-header[aria-label*="Quality Issues"]) .monaco-list-row');
  await waitFor('issues in the tree', async () => (await issueRows.count()) > 1, { timeoutMs: 120_000 });

  await runCommand(page, 'View: Focus Problems');
  const problemRows = page.locator('.markers-panel .monaco-list-row');
  await waitFor('findings in the Problems panel', async () => (await problemRows.count()) > 0, { timeoutMs: 60_000 });

  await arrangeLayout(page);

  // Open the first finding from the tree, as a person would, so its file is on screen.
  const leaf = page.locator('.pane:has(.pane-header[aria-label*="Quality Issues"]) .monaco-list-row:not([aria-expanded])').first();
  if (await leaf.count()) {
    await leaf.click();
    await page.locator('.editor-instance .monaco-editor').first().waitFor({ state: 'visible', timeout: 15_000 }).catch(() => {});
  }
  // Toasts cover the panel; what they said is already shown in the views and status bar.
  await runCommand(page, 'Notifications: Clear All Notifications').catch(() => {});
  await closeQuickInput(page);
  await page.waitForTimeout(1500);
  await page.screenshot({ path: file });
}
