// A display-language pack for the tests' VS Code: VS Code loads an extension's bundle
// (l10n/bundle.l10n.<language>.json) only when it runs in that language, which needs the
// language's pack installed (the Japanese pack from the Marketplace, on a person's machine).
// Offline there is none, so the tests install this one: it declares the language and
// translates nothing of VS Code's own (the workbench stays English), so every word of ours
// on the screen comes from our bundle.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createVSIX } from '@vscode/vsce';
import { tempDir } from './harness.mjs';

/** Builds the pack for `languageId` (ja, qps-ploc...) and returns its .vsix path. */
export async function languagePackVsix(languageId, languageName) {
  const dir = tempDir(`code-scanner-langpack-${languageId}-`);
  mkdirSync(join(dir, 'translations'));
  writeFileSync(join(dir, 'translations', 'main.i18n.json'), JSON.stringify({ version: '1.0.0', contents: {} }));
  writeFileSync(join(dir, 'README.md'), `Test display language ${languageName}: declares it, translates nothing of VS Code.\n`);
  writeFileSync(join(dir, 'LICENSE'), 'MIT\n');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({
    name: `test-language-pack-${languageId}`,
    displayName: `Test language pack: ${languageName}`,
    publisher: 'code-scanner-tests',
    version: '1.0.0',
    license: 'MIT',
    repository: { type: 'git', url: 'https://example.invalid/none.git' },
    engines: { vscode: '^1.96.0' },
    categories: ['Language Packs'],
    files: ['translations'],
    contributes: {
      localizations: [{ languageId, languageName, localizedLanguageName: languageName, translations: [{ id: 'vscode', path: './translations/main.i18n.json' }] }],
    },
  }));
  const packagePath = join(dir, `test-language-pack-${languageId}.vsix`);
  await createVSIX({ cwd: dir, packagePath, dependencies: false, allowMissingRepository: true, skipLicense: true });
  return packagePath;
}
