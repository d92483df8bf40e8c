// The one place a failure becomes what the user reads: the words for each kind of service
// error, what is logged, and the action offered with it (Sign In again, Check Connection,
// the extension's page, or the caller's own retry). Every feature reports through here.
import * as vscode from 'vscode';
import { ServiceError, errorMessage, type ServiceErrorKind } from '../core/errors';
import type { CommandId } from './commands/signatures';
import type { NotificationAction, Notifier } from './notifier';
import { l10n } from '../core/text/l10n';

export type FailureKind = 'signed-out' | 'cancelled' | 'validation' | 'error' | ServiceErrorKind;

export interface FailureText { kind: FailureKind; message: string; status?: number }

const SIGN_IN_AGAIN = () => l10n.t('The API key was rejected (expired or revoked). Sign in again to continue.');

/**
 * The message for a failed operation. With `action` (it completes "Could not …", e.g. "add
 * members to team #3") the message names what failed; a 403 keeps the service's own words
 * (they say which permission or plan is missing) and a refused value says which.
 */
export function describeFailure(err: unknown, action?: string): FailureText {
  if (!(err instanceof ServiceError)) return { kind: 'error', message: action ? l10n.t('Could not {0}: {1}', action, errorMessage(err)) : errorMessage(err) };
  const said = err.serverMessage?.trim();
  const status = err.status;
  switch (err.kind) {
    case 'unauthorized':
      return { kind: err.kind, status, message: SIGN_IN_AGAIN() };
    case 'validation':
      return { kind: err.kind, message: err.message };
    case 'not-found':
    case 'bad-request':
    case 'unprocessable':
      return { kind: err.kind, status, message: action ? l10n.t('Could not {0}: {1}', action, said ?? err.message) : err.message };
    default:
      return { kind: err.kind, status, message: action ? l10n.t('Could not {0}. {1}', action, err.message) : err.message };
  }
}

export class ErrorHandler {
  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly notifier: Notifier,
    private readonly extensionId: string,
  ) {}

  /**
   * Logs a failure and shows it once, with the action that helps. `retry` (e.g. "Edit and
   * Retry") is offered when the service refused one of the values; `source` names what
   * failed in the log (a command). A request the user stopped is neither logged nor shown.
   */
  report(err: unknown, o: { action?: string; retry?: NotificationAction; source?: string } = {}): FailureText {
    const f = describeFailure(err, o.action);
    if (err instanceof ServiceError && err.kind === 'aborted') return f;
    const what = o.action ? l10n.t('Could not {0}', o.action) : o.source ? `${o.source} failed` : err instanceof ServiceError ? `${err.operation} failed` : 'Failed';
    const detail = err instanceof ServiceError ? `${err.kind}${err.status ? ` (HTTP ${err.status})` : ''} ${err.message}` : err instanceof Error ? err.stack ?? err.message : String(err);
    this.log.error(`${what}: ${detail}`);
    switch (f.kind) {
      case 'unauthorized':
        this.notifier.offerSignIn(f.message);
        break;
      case 'unsupported':
        void this.notifier.error(f.message, { title: l10n.t('Show Extension'), run: () => vscode.commands.executeCommand('extension.open', this.extensionId) });
        break;
      case 'network':
      case 'proxy-auth':
      case 'timeout': {
        const check: CommandId = 'codeScanner.checkConnection';
        void this.notifier.error(f.message, { title: l10n.t('Check Connection'), run: () => vscode.commands.executeCommand(check) });
        break;
      }
      case 'bad-request':
      case 'unprocessable':
      case 'not-found':
        void (o.retry ? this.notifier.error(f.message, o.retry) : this.notifier.error(f.message));
        break;
      default:
        void this.notifier.error(f.message);
    }
    return f;
  }
}
