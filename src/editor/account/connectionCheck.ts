// Code Scanner: Check Connection. Asks the service once, the way every request goes, and
// reports the address, the route (direct or which proxy), the certificates trusted, the TLS
// result, the latency, the account and the service's warnings: in the log, in a
// notification, and copyable for a support ticket. Nothing secret is in the report.
import * as vscode from 'vscode';
import { connectionReport, type ConnectionReport } from '../../core/network';
import type { SomeCommandHandlers } from '../commands/signatures';
import type { Ctx } from '../context';
import { progressTitle } from '../notifier';
import type { Session } from './session';
import { errorMessage } from '../../core/errors';
import { serviceListsText, type ScanRef } from '../../core/results';
import { l10n } from '../../core/text/l10n';

function addressSource(): string {
  const c = vscode.workspace.getConfiguration('codeScanner');
  const custom = (c.get<string>('customBaseUrl') ?? '').trim();
  return custom ? l10n.t('from "codeScanner.customBaseUrl"') : l10n.t('the {0} region ("codeScanner.region")', c.get<string>('region', 'production'));
}

export async function checkConnection(session: Session, context: vscode.ExtensionContext, scans: readonly ScanRef[] = []): Promise<ConnectionReport> {
  const probe = await session.probe();
  const network = probe.network;
  const trust = await network.trust();
  let route;
  let routeError: string | undefined;
  if (probe.url) {
    try {
      route = network.route(new URL(probe.url));
    } catch (err) {
      routeError = errorMessage(err);
    }
  }
  const u = probe.user;
  return connectionReport({
    at: new Date().toISOString(),
    service: probe.url ? { url: probe.url, from: addressSource() } : { error: probe.error ?? 'unknown' },
    route,
    routeError,
    trust: { sources: trust.sources, problems: trust.problems, strict: trust.rejectUnauthorized },
    verify: probe.url && probe.ms !== undefined
      ? { ok: !probe.error, ms: probe.ms, status: probe.status, error: probe.error, tlsFailed: /TLS certificate of/.test(probe.error ?? '') }
      : undefined,
    signedIn: probe.signedIn,
    tokenSent: probe.tokenSent,
    user: u ? `${u.name}${u.email ? ` <${u.email}>` : ''}${u.company ? `, ${u.company}` : ''}` : undefined,
    warnings: probe.warnings,
    webApp: probe.webApp,
    keyHeaders: probe.keyHeaders,
    lists: serviceListsText(scans, new Date()),
    client: [
      `${context.extension.packageJSON.name as string} ${context.extension.packageJSON.version as string}`,
      `${vscode.env.appName} ${vscode.version}`,
      vscode.env.remoteName ? l10n.t('remote: {0}', vscode.env.remoteName) : l10n.t('local'),
      l10n.t('extension host {0}-{1}, Node {2}', process.platform, process.arch, process.versions.node),
    ].join(', '),
  });
}

/** Check Connection: the report in the log and a notification, with Copy Report. */
export function connectionFeature({ session, notifier, extension, store }: Ctx) {
  return {
    commands: {
      'codeScanner.checkConnection': async () => {
        const report = await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: progressTitle(l10n.t('Checking the connection…')) },
          () => checkConnection(session, extension, store.folderUris().flatMap((f) => store.scansOf(f))),
        );
        session.log.info(report.text);
        const copy = { title: l10n.t('Copy Report'), run: () => vscode.env.clipboard.writeText(report.text) };
        const show = { title: l10n.t('Show Report'), run: () => session.log.show(true) };
        if (report.ok) void notifier.info(report.summary, copy, show);
        else void notifier.error(report.summary, copy);
        return report;
      },
    } satisfies SomeCommandHandlers,
  };
}
