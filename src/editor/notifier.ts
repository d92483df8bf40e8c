// The one way the extension speaks to the user in notifications. Every message gets the
// same prefix, goes to the log in full, and is made inert before it is shown: a
// notification turns `[label](command:…)` into a link that runs the command, and many
// messages carry text from the service or the repository (error bodies, names, paths).
import * as vscode from 'vscode';
import type { SecretRedactor } from '../core/text/redact';
import type { CommandId } from './commands/signatures';
import { plainNotificationText } from '../core/text/untrusted';
import { errorMessage } from '../core/errors';
import { l10n } from '../core/text/l10n';

export type NotificationSeverity = 'info' | 'warning' | 'error';

/** A button on a notification and what it does when chosen. */
export interface NotificationAction {
  title: string;
  run?: () => unknown;
}

/** What was shown, exactly as the workbench got it (for the integration tests). */
export interface ShownNotification {
  /** Counts up from 1 for the session, so a test can ask for what came after a point. */
  seq: number;
  severity: NotificationSeverity;
  text: string;
  actions: string[];
}

const PREFIX = () => l10n.t('Code Scanner: ');
const SHOW_LOG = () => l10n.t('Show Log');
const SIGN_IN = () => l10n.t('Sign In');
// The notifier exists before the commands are registered, so it names this one directly.
const SIGN_IN_COMMAND: CommandId = 'codeScanner.signIn';
const KEPT = 50;

export class Notifier {
  private readonly recent: ShownNotification[] = [];
  private seq = 0;
  private signInOffered = false;

  constructor(private readonly log: vscode.LogOutputChannel, private readonly redactor: SecretRedactor) {}

  info(message: string, ...actions: (NotificationAction | string)[]): Promise<string | undefined> {
    return this.show('info', message, actions);
  }

  warn(message: string, ...actions: (NotificationAction | string)[]): Promise<string | undefined> {
    return this.show('warning', message, actions);
  }

  /** Errors always offer Show Log, so the details (request lines, the full text) are one click away. */
  error(message: string, ...actions: (NotificationAction | string)[]): Promise<string | undefined> {
    return this.show('error', message, [...actions, { title: SHOW_LOG(), run: () => this.log.show(true) }]);
  }

  /**
   * Offers Sign In; while one offer is open, further ones are only logged (a burst of
   * rejected requests must not stack prompts). Never waits for the user.
   */
  offerSignIn(message: string): void {
    if (this.signInOffered) {
      this.log.warn(message);
      return;
    }
    this.signInOffered = true;
    void this.show('warning', message, [{ title: SIGN_IN(), run: () => vscode.commands.executeCommand(SIGN_IN_COMMAND) }])
      .finally(() => { this.signInOffered = false; });
  }

  /**
   * A modal question before something that cannot be undone; true when `action` is chosen.
   * Modal text renders no links, but it is made inert like the rest all the same.
   */
  async confirm(question: string, detail: string, action: string): Promise<boolean> {
    const plain = (t: string) => plainNotificationText(this.redactor.apply(t));
    try {
      const choice = await vscode.window.showWarningMessage(plain(question), { modal: true, detail: plain(detail) }, action);
      return choice === action;
    } catch (e) {
      // A workbench that shows no dialogs (extension tests) refuses: no answer is a no.
      this.log.warn(`The question could not be shown: ${errorMessage(e)}`);
      return false;
    }
  }

  /** A modal question with several answers; undefined when dismissed. */
  async choose(question: string, detail: string, actions: string[]): Promise<string | undefined> {
    const plain = (t: string) => plainNotificationText(this.redactor.apply(t));
    this.log.info(PREFIX() + question);
    try {
      return await vscode.window.showInformationMessage(plain(question), { modal: true, detail: plain(detail) }, ...actions);
    } catch (e) {
      // A workbench that shows no dialogs (extension tests) refuses: no answer, so nothing happens.
      this.log.warn(`The question could not be shown: ${errorMessage(e)}`);
      return undefined;
    }
  }

  /**
   * A short confirmation ("dismissed", "copied"): a notification without actions, which
   * screen readers announce (a status bar message they do not) and which hides by itself.
   */
  done(message: string): void {
    void this.info(message);
  }

  /** The last notifications shown, oldest first; with `after`, only those after that `seq`. */
  shown(after = 0): readonly ShownNotification[] {
    return after ? this.recent.filter((n) => n.seq > after) : this.recent;
  }

  /** The `seq` of the last notification shown (0 before the first). */
  lastSeq(): number {
    return this.seq;
  }

  private async show(severity: NotificationSeverity, message: string, actions: (NotificationAction | string)[]): Promise<string | undefined> {
    const full = PREFIX() + message;
    if (severity === 'error') this.log.error(full);
    else if (severity === 'warning') this.log.warn(full);
    else this.log.info(full);
    const items = actions.map((a) => (typeof a === 'string' ? { title: a } : a));
    const text = plainNotificationText(this.redactor.apply(full));
    this.recent.push({ seq: ++this.seq, severity, text, actions: items.map((a) => a.title) });
    if (this.recent.length > KEPT) this.recent.shift();
    const titles = items.map((a) => a.title);
    const show = severity === 'error' ? vscode.window.showErrorMessage : severity === 'warning' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    const chosen = await show(text, ...titles);
    const action = items.find((a) => a.title === chosen);
    if (action?.run) {
      try {
        await action.run();
      } catch (err) {
        this.log.error(`${PREFIX()}"${action.title}" failed: ${errorMessage(err)}`);
      }
    }
    return chosen;
  }
}

/** A progress reporter whose messages are made inert like notifications (they are shown in one). */
export function inertProgress<P extends { message?: string; increment?: number }>(progress: vscode.Progress<P>): vscode.Progress<P> {
  return { report: (p) => progress.report(p.message === undefined ? p : { ...p, message: plainNotificationText(p.message) }) };
}

/** A notification progress title made inert. */
export function progressTitle(title: string): string {
  return plainNotificationText(PREFIX() + title);
}
