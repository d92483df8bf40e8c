// Upgrade to X: a dependency finding's fix, made here from its manifest (the service sends a
// fix version, no diff). It is a one-line edit of the version the manifest asks for, as a
// unified diff, so it is previewed, applied, undone and exported exactly as the service's
// own fixes are. Where the edit is not clear there is none (manifests.ts).
import { createTwoFilesPatch } from 'diff';
import { upgradeEdit, type DependencyRef } from './manifests';
import { l10n } from '../text/l10n';

/** The fix status of an upgrade made in the editor (fixStatusWords says it in words). */
export const UPGRADE_FIX_STATUS = 'upgrade';

/** Whether a finding's fix is its dependency's upgrade, made here (not the service's diff). */
export function isUpgrade(issue: { dependency?: unknown; fix?: { status: string } }): boolean {
  return !!issue.dependency && issue.fix?.status === UPGRADE_FIX_STATUS;
}

/** What to run after the manifest changed, so the lock file and what is installed follow. */
function afterwards(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  if (base === 'package.json') return l10n.t('Then refresh the lock file (npm install, or your package manager\'s install) so what is installed matches.');
  if (base === 'pyproject.toml') return l10n.t('Then refresh the lock file (poetry lock, uv lock or pip-compile, as the project does) and reinstall.');
  if (base === 'go.mod') return l10n.t('Then run go mod tidy so go.sum matches.');
  if (base === 'pom.xml') return l10n.t('Then rebuild so the new version is resolved.');
  return l10n.t('Then reinstall the requirements (and refresh any lock file made from them).');
}

export function upgradeFix(path: string, text: string, dep: DependencyRef): { diff: string; explanation: string; status: string } | undefined {
  const edit = upgradeEdit(path, text, dep);
  if (!edit) return undefined;
  const lines = text.split(/(?<=\n)/);
  const eol = lines[edit.line]!.slice(edit.before.length);
  const after = [...lines.slice(0, edit.line), `${edit.after}${eol}`, ...lines.slice(edit.line + 1)].join('');
  const diff = createTwoFilesPatch(`a/${path}`, `b/${path}`, text, after, undefined, undefined, { context: 2 });
  const from = dep.version ? l10n.t('Upgrades {0} from {1} to {2} in {3}.', dep.name, dep.version, dep.fixVersion, path) : l10n.t('Upgrades {0} to {1} in {2}.', dep.name, dep.fixVersion, path);
  return { diff, explanation: `${from} ${afterwards(path)}`, status: UPGRADE_FIX_STATUS };
}
