// The first scan of a workspace asks before any of its code leaves the machine: how many
// files go to which service, with Preview Upload one click away. Remembered per workspace.
// Only the user's own settings can turn the question off: a repository's
// .vscode/settings.json must not be able to wave its code through.
import { STATE_KEYS } from '../../core/persist/stateKeys';
import * as vscode from 'vscode';
import { oneLine } from '../../core/text/untrusted';
import { formatBytes } from '../../core/workspace/selectFiles';
import { leaveOutBinaryContent } from '../../core/workspace/binaryContent';
import type { Commands } from '../commands/manager';
import type { Notifier } from '../notifier';
import { folderProject, repositorySettingNotes, serviceHost } from '../settings';
import { scannableFolders, selectForScan } from './fileChoice';
import { l10n, listWords, plural } from '../../core/text/l10n';

const CONSENT_KEY = STATE_KEYS.uploadConsent.key;
const UPLOAD = () => l10n.t('Upload and Scan');
const PREVIEW = () => l10n.t('Preview Upload');

export type ConsentScope = 'workspace' | 'openFiles' | 'changedFiles' | 'givenFiles';

function questionTurnedOff(): boolean {
  return vscode.workspace.getConfiguration('codeScanner').inspect<boolean>('confirmFirstUpload')?.globalValue === false;
}

export class UploadConsent {
  constructor(private readonly state: vscode.Memento, private readonly notifier: Notifier, private readonly commands: Commands) {}

  /** Whether the next scan must ask first. */
  needed(): boolean {
    return !questionTurnedOff() && !this.state.get(CONSENT_KEY);
  }

  /**
   * Asks when needed; true to go on. `confirmed`: automation that already asked. `agent`:
   * the AI agent whose request it is, named in the question (the person did not start it).
   */
  async ask(scope: ConsentScope, confirmed = false, agent?: string): Promise<boolean> {
    if (!this.needed()) return true;
    if (confirmed) {
      await this.remember();
      return true;
    }
    let what: string;
    if (scope === 'workspace') {
      // A folder whose files cannot be chosen (a bad exclude setting) fails the scan itself
      // with the reason; the question then names no count.
      // Counted as packaging will send them: files binary by their content are left out there.
      const selections = await Promise.all(scannableFolders().map(async (f) => leaveOutBinaryContent(await selectForScan(f)))).catch(() => undefined);
      const files = selections?.reduce((n, s) => n + s.files.length, 0) ?? 0;
      const bytes = selections?.reduce((n, s) => n + s.totalBytes, 0) ?? 0;
      what = selections ? `${plural(files, l10n.t('{0} file'), l10n.t('{0} files'))} (${formatBytes(bytes)})` : l10n.t('the files');
    } else {
      what = scope === 'openFiles' ? l10n.t('the files open in editors') : scope === 'givenFiles' ? l10n.t('the chosen files') : l10n.t('the files git reports as changed');
    }
    const projects = await Promise.all(scannableFolders().map((f) => folderProject(f))).catch(() => []);
    // Whole sentences to translate: a sentence glued from translated pieces reads wrong in Japanese.
    const named = projects.some((p) => p.from === 'setting') ? l10n.t(' (named by the codeScanner.projectName setting)') : '';
    const into = !projects.length ? ''
      : projects.length === 1 ? l10n.t(' Scans go to the project {0} on the service{1}.', projects[0]!.name, named)
        : l10n.t(' Scans go to the projects {0} on the service{1}.', listWords(projects.map((p) => p.name)), named);
    const narrowed = scannableFolders().flatMap((f) => repositorySettingNotes(f));
    const settingsNote = narrowed.length ? l10n.t(' Note: {0}.', narrowed.join('; ')) : '';
    const choice = await this.notifier.choose(
      agent
        ? l10n.t('An AI agent ({0}) asks for a scan: upload {1} of this workspace to {2} for scanning? It scans once you have answered and it asks again.', oneLine(agent, 60), what, serviceHost())
        : l10n.t('Upload {0} of this workspace to {1} for scanning?', what, serviceHost()),
      l10n.t('This is the first scan of this workspace.{0}{1} Files ignored by git, dependency and build folders, credential files, binary files and files over the size limit stay on this machine. Preview Upload lists every file that would be sent and every file left out, with why. Your answer is remembered for this workspace; the setting codeScanner.confirmFirstUpload turns the question off.', into, settingsNote),
      [UPLOAD(), PREVIEW()],
    );
    if (choice === UPLOAD()) {
      await this.remember();
      return true;
    }
    if (choice === PREVIEW()) void this.commands.execute('codeScanner.previewUpload');
    return false;
  }

  private remember(): Thenable<void> {
    return this.state.update(CONSENT_KEY, { at: new Date().toISOString() });
  }

  /** For tests: the next scan asks again. */
  forget(): Thenable<void> {
    return this.state.update(CONSENT_KEY, undefined);
  }
}
