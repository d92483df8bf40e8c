// package.json against the code, without VS Code: every contributed command is in the
// typed command map and the other way round, menus and keybindings name only our
// commands, `when` clauses use only the context keys the code sets, and the settings
// that protect the token cannot be set by a repository.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { TOOL_DEFINITIONS } from '../../../src/core/agent/toolDefinitions';
import { COMMANDS, COMMAND_IDS } from '../../../src/editor/commands/ids';
import { CONTEXT_KEYS } from '../../../src/editor/commands/contextKeys';
import { NUMERIC_SETTINGS, clampSetting } from '../../../src/editor/settingBounds';

const root = path.resolve(__dirname, '..', '..', '..');

interface Manifest {
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    menus: Record<string, { command?: string; submenu?: string; when?: string; group?: string }[]>;
    keybindings: { command: string; key: string; mac?: string; when?: string }[];
    views: Record<string, { id: string; when?: string }[]>;
    viewsWelcome?: { view: string; when?: string; contents: string }[];
    walkthroughs: { steps: { media: { markdown?: string }; completionEvents?: string[] }[] }[];
    configuration: { properties: Record<string, { scope?: string; type?: string; minimum?: number; maximum?: number; default?: unknown }> };
  };
}

// The manifest as VS Code shows it in English: its %key% words from package.nls.json.
const words = JSON.parse(readFileSync(path.join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'), (_k, v: unknown) => (typeof v === 'string' && /^%[^%]+%$/.test(v) ? words[v.slice(1, -1)] ?? v : v)) as Manifest;
const c = manifest.contributes;

test('the contributed commands are exactly the typed command map', () => {
  const contributed = c.commands.map((x) => x.command).sort();
  assert.deepEqual(contributed, [...COMMAND_IDS].sort());
});

test('menus and keybindings name only commands of the map', () => {
  for (const [menu, entries] of Object.entries(c.menus)) {
    for (const e of entries) if (e.command) assert.ok((COMMAND_IDS as string[]).includes(e.command), `${menu}: ${e.command}`);
  }
  for (const k of c.keybindings) assert.ok((COMMAND_IDS as string[]).includes(k.command), `keybinding: ${k.command}`);
});

test('every command is in the "Code Scanner" category; argument-only commands are hidden from the palette', () => {
  for (const x of c.commands) assert.equal(x.category, 'Code Scanner', x.command);
  const when = new Map(c.menus.commandPalette.map((e) => [e.command, e.when]));
  for (const [id, reach] of Object.entries(COMMANDS)) {
    if (reach === 'hidden') assert.equal(when.get(id), 'false', `${id} takes an argument: hide it from the palette`);
    else assert.notEqual(when.get(id), 'false', `${id} is meant for the palette`);
  }
  assert.equal(when.get('codeScanner.signOut'), CONTEXT_KEYS.signedIn);
  assert.match(when.get('codeScanner.scanWorkspace') ?? '', /isWorkspaceTrusted/);
  assert.match(when.get('codeScanner.cancelScan') ?? '', /codeScanner\.scanning/);
  for (const id of ['codeScanner.chooseTargetPolicies', 'codeScanner.showCompanyRoles', 'codeScanner.addTeamMembers', 'codeScanner.updateIntegration', 'codeScanner.policies.refresh', 'codeScanner.policies.filter']) {
    assert.ok(when.get(id)?.includes(CONTEXT_KEYS.signedIn), `${id} is offered only when signed in`);
  }
});

test('when clauses use only the context keys the code sets, and each key is used', () => {
  const viewIds = new Set(Object.values(c.views).flat().map((v) => v.id));
  const clauses = [
    ...Object.values(c.menus).flat().map((e) => e.when),
    ...c.keybindings.map((k) => k.when),
    ...(c.viewsWelcome ?? []).map((w) => w.when),
    ...Object.values(c.views).flat().map((v) => v.when),
  ].filter((w): w is string => !!w);
  const used = new Set(clauses.flatMap((w) => [...w.matchAll(/codeScanner\.[\w.]+/g)].map((m) => m[0])).filter((k) => !viewIds.has(k)));
  const known = new Set<string>(Object.values(CONTEXT_KEYS));
  assert.deepEqual([...used].filter((k) => !known.has(k)), [], 'context keys in when clauses that the code never sets');
  assert.deepEqual([...known].filter((k) => !used.has(k)), [], 'context keys the code sets that no when clause reads');
});

test('Scan Workspace has a keybinding', () => {
  const kb = c.keybindings.find((k) => k.command === 'codeScanner.scanWorkspace');
  assert.ok(kb, 'no keybinding for Scan Workspace');
  assert.equal(kb.key, 'ctrl+alt+shift+s');
  assert.equal(kb.mac, 'cmd+alt+shift+s');
});

test('the walkthrough media files exist, show no raw icon syntax, and every step can be completed', () => {
  const steps = c.walkthroughs.flatMap((w) => w.steps) as { description?: string; media: { markdown?: string }; completionEvents?: string[] }[];
  assert.ok(steps.length >= 4);
  for (const s of steps) {
    assert.ok(s.media.markdown, 'each step has markdown media');
    assert.ok(existsSync(path.join(root, s.media.markdown)), s.media.markdown);
    assert.ok(!readFileSync(path.join(root, s.media.markdown), 'utf8').includes('$('), `${s.media.markdown} shows raw $(icon) text`);
    assert.ok(!(s.description ?? '').includes('$('), 'a step description shows raw $(icon) text');
    assert.ok(s.completionEvents?.length, 'each step ticks itself when done');
    for (const e of s.completionEvents ?? []) {
      const m = /^onCommand:(.+)$/.exec(e);
      if (m) assert.ok((COMMAND_IDS as string[]).includes(m[1]), `${e} names a real command`);
    }
    for (const m of (s.description ?? '').matchAll(/command:([\w.]+)/g)) {
      assert.ok((COMMAND_IDS as string[]).includes(m[1]) || m[1].startsWith('workbench.'), `the step links ${m[1]}`);
    }
  }
});

test('settings that decide where the token and credentials go are user-only; scan settings are per folder', () => {
  const props = c.configuration.properties;
  for (const k of ['codeScanner.region', 'codeScanner.customBaseUrl', 'codeScanner.uploadCredentialFiles']) assert.equal(props[k]?.scope, 'application', k);
  for (const k of ['codeScanner.scanConfigs', 'codeScanner.excludeGlobs', 'codeScanner.maxFileSizeMB', 'codeScanner.uploadChunkSizeMB']) assert.equal(props[k]?.scope, 'resource', k);
  assert.ok(props['codeScanner.hideFalsePositives']);
  assert.notEqual(props['codeScanner.hideFalsePositives'].scope, 'application');
});

test('the Policies view is contributed with filter and refresh in its title bar', () => {
  assert.ok(Object.values(c.views).flat().some((v) => v.id === 'codeScanner.policies'));
  const title = c.menus['view/title'].filter((m) => m.when?.includes('view == codeScanner.policies')).map((m) => m.command);
  assert.ok(title.includes('codeScanner.policies.filter') && title.includes('codeScanner.policies.refresh'));
  const welcome = (c.viewsWelcome ?? []).find((w) => w.view === 'codeScanner.policies');
  assert.ok(welcome && welcome.when === `!${CONTEXT_KEYS.signedIn}` && welcome.contents.includes('command:codeScanner.signIn'), 'the signed-out welcome offers Sign In');
});

test('every numeric setting is clamped to the range package.json declares (a repository\'s settings are not checked by VS Code)', () => {
  const numeric = Object.entries(c.configuration.properties).filter(([, v]) => v.type === 'number' || v.type === 'integer');
  assert.deepEqual(numeric.map(([k]) => k.replace(/^codeScanner\./, '')).sort(), Object.keys(NUMERIC_SETTINGS).sort());
  for (const [k, v] of numeric) {
    const b = NUMERIC_SETTINGS[k.replace(/^codeScanner\./, '') as keyof typeof NUMERIC_SETTINGS];
    assert.deepEqual([b.min, b.max, b.default], [v.minimum, v.maximum, v.default], k);
  }
});

test('values out of range are clamped, values of another type give the default', () => {
  assert.equal(clampSetting('uploadChunkSizeMB', 1e-9), 0.0625, 'a 1-byte chunk');
  assert.equal(clampSetting('maxFileSizeMB', 1e9), 1024, 'an unlimited file size');
  assert.equal(clampSetting('maxFileSizeMB', -1), 0.01);
  assert.equal(clampSetting('maxFileSizeMB', '5'), 10);
  assert.equal(clampSetting('maxFileSizeMB', Number.NaN), 10);
  assert.equal(clampSetting('uploadChunkSizeMB', 16), 16);
});

test('what runs git is offered only in a trusted workspace (its .git/config can name programs git starts)', () => {
  for (const command of ['codeScanner.previewUpload', 'codeScanner.scanWorkspace', 'codeScanner.scanChangedFiles']) {
    const entries = Object.values(c.menus).flat().filter((e) => e.command === command);
    assert.ok(entries.length > 0, command);
    for (const e of entries) assert.match(e.when ?? '', /isWorkspaceTrusted/, `${command}: ${e.when}`);
  }
});

test('the Scan Workspace key works in Restricted Mode too, where it says why it cannot scan (a key that does nothing says nothing)', () => {
  const kb = c.keybindings.find((k) => k.command === 'codeScanner.scanWorkspace');
  assert.doesNotMatch(kb?.when ?? '', /isWorkspaceTrusted/);
});

test('the language model tools are the agent tools\' one definition, as the MCP bridge lists them; listed once (no MCP server of the same tools)', () => {
  const tools = (manifest.contributes as unknown as { languageModelTools: { name: string; displayName: string; userDescription: string; modelDescription: string; inputSchema: unknown }[] }).languageModelTools;
  assert.deepEqual(tools.map((t) => ({ name: t.name, title: t.displayName, userDescription: t.userDescription, modelDescription: t.modelDescription, inputSchema: t.inputSchema })),
    TOOL_DEFINITIONS.map((d) => ({ name: d.name, title: d.title, userDescription: d.userDescription, modelDescription: d.modelDescription, inputSchema: d.inputSchema })));
  const providers = (manifest.contributes as unknown as { mcpServerDefinitionProviders?: { id: string }[] }).mcpServerDefinitionProviders;
  assert.equal(providers, undefined, 'VS Code\'s tools picker would list every tool a second time');
});

test('the oldest supported VS Code is the one the compiler checks against and the launcher tests', async () => {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    engines: { vscode: string };
    devDependencies: Record<string, string>;
  };
  const floor = /^\^(\d+)\.(\d+)\.0$/.exec(pkg.engines.vscode);
  assert.ok(floor, `engines.vscode is a caret range: ${pkg.engines.vscode}`);
  // ~ keeps @types/vscode at the floor's minor: an API the oldest editor lacks does not compile.
  assert.equal(pkg.devDependencies['@types/vscode'], `~${floor[1]}.${floor[2]}.0`);
  const installed = JSON.parse(readFileSync(path.join(root, 'node_modules', '@types', 'vscode', 'package.json'), 'utf8')) as { version: string };
  assert.ok(installed.version.startsWith(`${floor[1]}.${floor[2]}.`), `installed @types/vscode ${installed.version}`);
  const { MINIMUM } = (await import(path.join(root, 'test', 'launch', 'provision.mjs'))) as { MINIMUM: { codeServer: string } };
  // code-server 4.x.y ships VS Code 1.x.y.
  assert.equal(MINIMUM.codeServer.split('.')[1], floor[2], `the smoke suite runs code-server ${MINIMUM.codeServer}`);
});

test('what both marketplaces need to list it: licence, repository, icon, publisher, categories', () => {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Record<string, unknown> & {
    repository?: { url?: string };
    icon?: string;
    categories?: string[];
  };
  for (const field of ['name', 'displayName', 'description', 'version', 'publisher', 'license']) assert.ok(pkg[field], field);
  assert.ok(existsSync(path.join(root, 'LICENSE')), 'LICENSE');
  assert.ok(pkg.repository?.url, 'repository');
  assert.ok(pkg.icon && pkg.icon.endsWith('.png') && existsSync(path.join(root, pkg.icon)), 'a PNG icon (neither marketplace takes SVG)');
  assert.ok((pkg.categories ?? []).length > 0, 'categories');
});
