// npm run l10n:export: writes l10n/bundle.l10n.json, the English source every bundle
// translates, from the l10n.t messages of the sources. (@vscode/l10n-dev's export finds
// l10n.t only when imported from 'vscode' or '@vscode/l10n'; ours comes from
// src/core/text/l10n.ts, which the core can import.) Then add each new key to every
// l10n/bundle.l10n.<language>.json: test/unit/l10n/bundles.test.ts says which are missing.
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { ROOT, englishBundle } from './sourceStrings';

const bundle = englishBundle();
writeFileSync(path.join(ROOT, 'l10n', 'bundle.l10n.json'), `${JSON.stringify(bundle, null, 2)}\n`);
console.log(`l10n/bundle.l10n.json: ${Object.keys(bundle).length} messages`);
