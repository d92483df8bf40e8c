// What every account command shares: getting a client (or offering Sign In), turning a
// failure into the notification a user expects, and the result a command returns so
// tests and other extensions calling it with arguments can tell what happened.
import * as vscode from 'vscode';
import { ServiceError, type ServiceClient } from '../../core/api';
import type { ErrorHandler, FailureKind } from '../errors';

export { describeFailure, type FailureKind } from '../errors';
import { operationPermission } from '../../core/api/errors';
import type { NotificationAction } from '../notifier';
import type { Parsed } from '../../core/account/parsed';
import type { KnownIds } from './knownIds';
import { progressTitle, type Notifier } from '../notifier';
import { l10n } from '../../core/text/l10n';

export interface AccountDeps {
  /** A client for the signed-in user; when signed out it offers Sign In and returns undefined. */
  getClient(): Promise<ServiceClient | undefined>;
  log: vscode.LogOutputChannel;
  notifier: Notifier;
  /** Turns a failure into what the user reads (errors.ts). */
  errors: ErrorHandler;
  /** Lets the Policies view reload on sign-in, sign-out and base URL changes. */
  onDidChangeSession?: vscode.Event<void>;
  /** Lets views render their signed-out welcome without asking for a client. */
  isSignedIn?(): boolean;
  /** The signed-in account (`company:user`), to remember what the service refused whom. */
  readonly account?: string;
  /** Teams, users and integrations the service has shown this account, offered by name in the wizards. */
  known?: KnownIds;
}

/** Operations the service refused (403) per account in this session, so wizards can say so before asking. */
const refusals = new Set<string>();

function refusalKey(deps: AccountDeps, operation: string): string {
  return `${deps.account ?? ''}|${operation}`;
}

/**
 * Before a wizard asks for input: when the service already refused this account the
 * operation in this session, says so and asks whether to try anyway.
 */
export async function mayTry(deps: AccountDeps, operation: string): Promise<boolean> {
  if (!refusals.has(refusalKey(deps, operation))) return true;
  const needs = operationPermission(operation) ?? l10n.t('do this');
  const tryAnyway = l10n.t('Try Anyway');
  const choice = await deps.notifier.warn(l10n.t('The service refused your account the permission to {0} earlier. Ask an administrator of your organization for it, or try again if it was granted meanwhile.', needs), tryAnyway);
  return choice === tryAnyway;
}

export type Outcome<T> =
  | { ok: true; value: T }
  | { ok: false; kind: FailureKind; message: string; status?: number };

export function cancelled(): Outcome<never> {
  return { ok: false, kind: 'cancelled', message: 'Cancelled.' };
}

/** The signed-in client; when signed out, getClient has already offered Sign In. */
export async function requireClient(deps: AccountDeps, purpose: string): Promise<{ client: ServiceClient } | { failure: Outcome<never> }> {
  const client = await deps.getClient();
  if (client) return { client };
  return { failure: { ok: false, kind: 'signed-out', message: l10n.t('Sign in to the code scanning service to {0}.', purpose) } };
}

/** Shows a validation problem of command arguments (the input boxes show theirs inline). */
export function invalid(deps: AccountDeps, message: string): Outcome<never> {
  void deps.notifier.error(message);
  return { ok: false, kind: 'validation', message };
}

/**
 * Logs and shows a failure (errors.ts), and remembers a refusal (403) so the wizard can say
 * so next time. `retry` (e.g. "Edit and Retry", reopening the wizard with the values given)
 * is offered when the service refused one of the values.
 */
export function reportFailure(err: unknown, action: string, deps: AccountDeps, retry?: NotificationAction): Outcome<never> {
  if (err instanceof ServiceError && err.kind === 'forbidden') refusals.add(refusalKey(deps, err.operation));
  else if (err instanceof ServiceError) refusals.delete(refusalKey(deps, err.operation));
  return { ok: false, ...deps.errors.report(err, { action, retry }) };
}

/**
 * An input box that checks the text with `parse` as the user types, and resolves with the
 * parsed value ({ value }, which may itself be undefined), or undefined when dismissed.
 */
export async function askParsed<T>(options: vscode.InputBoxOptions, parse: (text: string) => Parsed<T>): Promise<{ value: T } | undefined> {
  const text = await vscode.window.showInputBox({
    ignoreFocusOut: true,
    ...options,
    validateInput: (v) => { const r = parse(v); return r.ok ? undefined : r.message; },
  });
  if (text === undefined) return undefined;
  const r = parse(text);
  return r.ok ? { value: r.value } : undefined;
}

/** Runs `task` with a notification that names it; errors are reported and returned. */
export async function runWithProgress<T>(
  title: string,
  action: string,
  deps: AccountDeps,
  task: () => Promise<T>,
  retry?: NotificationAction,
): Promise<Outcome<T>> {
  try {
    const value = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: progressTitle(title) }, task);
    return { ok: true, value };
  } catch (err) {
    return reportFailure(err, action, deps, retry);
  }
}

export interface KnownChoice<T> extends vscode.QuickPickItem { value: T }

/**
 * A pick of values the extension knows (by name), where typing offers the typed text as the
 * last entry, checked with `parse` (a text that does not parse says why and cannot be
 * chosen). With nothing known, the plain input box. Undefined when dismissed.
 */
export async function pickOrType<T>(
  o: { title: string; prompt: string; placeHolder: string; value?: string; typedLabel: (text: string) => string },
  known: KnownChoice<T>[], parse: (text: string) => Parsed<T>,
): Promise<{ value: T } | undefined> {
  if (!known.length) return askParsed({ title: o.title, prompt: o.prompt, placeHolder: o.placeHolder, value: o.value }, parse);
  const pick = vscode.window.createQuickPick<KnownChoice<T> & { problem?: string }>();
  pick.title = o.title;
  pick.placeholder = l10n.t('{0} — pick one, or type it ({1})', o.prompt, o.placeHolder);
  pick.ignoreFocusOut = true;
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  const items = (text: string) => {
    const t = text.trim();
    if (!t) return known;
    const r = parse(t);
    const typed = r.ok
      ? { label: o.typedLabel(t), value: r.value, alwaysShow: true }
      : { label: o.typedLabel(t), detail: r.message, value: undefined as unknown as T, problem: r.message, alwaysShow: true };
    return [...known, typed];
  };
  pick.items = items(o.value ?? '');
  if (o.value) pick.value = o.value;
  pick.onDidChangeValue((t) => { pick.items = items(t); });
  try {
    return await new Promise<{ value: T } | undefined>((resolve) => {
      pick.onDidAccept(() => {
        const chosen = pick.selectedItems[0] ?? pick.activeItems[0];
        if (!chosen || chosen.problem) return;
        resolve({ value: chosen.value });
      });
      pick.onDidHide(() => resolve(undefined));
      pick.show();
    });
  } finally {
    pick.dispose();
  }
}
