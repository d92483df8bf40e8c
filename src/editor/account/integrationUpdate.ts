// "Update Pipeline-Provider Integration": the integration's UUID, a pick of the fields to
// change, one validated input box per field (the token in a password box), and a single
// PATCH that carries only those fields. The token is never logged, shown or returned.
import * as vscode from 'vscode';
import type { Integration } from '../../core/api';
import { parseUuid } from '../../core/account/ids';
import {
  INTEGRATION_FIELDS, changedFieldLabels, changesReverify, integrationUpdateSummary, parseField, parseIntegrationChanges,
  toIntegrationUpdate, type IntegrationChanges, type IntegrationFieldInfo,
} from '../../core/account/integrationFields';
import { askParsed, cancelled, invalid, mayTry, pickOrType, requireClient, runWithProgress, type AccountDeps, type Outcome } from './common';
import type { KnownIntegration } from './knownIds';
import { l10n } from '../../core/text/l10n';

export interface UpdateIntegrationArgs {
  uuid?: unknown;
  name?: unknown;
  orgAllowlist?: unknown;
  baseUrl?: unknown;
  gatewayPrefix?: unknown;
  token?: unknown;
}

export interface UpdateIntegrationResult {
  /** As the service returned it; undefined when its answer held no readable integration. */
  integration: Integration | undefined;
  credentialsVerified: boolean | undefined;
  /** Labels of the fields that were sent (never their values). */
  changed: string[];
  message: string;
}

const TITLE = () => l10n.t('Update Pipeline-Provider Integration');

async function askUuid(deps: AccountDeps, value?: string): Promise<string | undefined> {
  // Integrations updated before are offered by name; any UUID may be typed.
  const known = (deps.known?.integrations() ?? []).map((i) => ({ label: i.name ?? i.uuid, description: i.name ? i.uuid : undefined, detail: i.baseUrl, value: i.uuid }));
  return (await pickOrType({
    title: TITLE(),
    prompt: l10n.t('The integration (its UUID is shown in the web application under Integrations)'),
    placeHolder: 'a UUID, e.g. 3f2b8c1e-4d5a-4b6c-9e7f-0a1b2c3d4e5f',
    value,
    typedLabel: (t) => l10n.t('Integration {0}', t),
  }, known, parseUuid))?.value;
}

/** A field's value as the service last returned it, as input box text. */
function currentValue(known: KnownIntegration | undefined, field: string): string | undefined {
  if (!known) return undefined;
  const v = field === 'name' ? known.name : field === 'orgAllowlist' ? known.orgAllowlist : field === 'baseUrl' ? known.baseUrl : field === 'gatewayPrefix' ? known.gatewayPrefix : undefined;
  return asText(v);
}

interface FieldItem extends vscode.QuickPickItem { info: IntegrationFieldInfo }

async function askFields(previous?: IntegrationChanges): Promise<IntegrationFieldInfo[] | undefined> {
  const picked = await vscode.window.showQuickPick<FieldItem>(
    INTEGRATION_FIELDS.map((info) => ({ info, label: info.label, detail: info.detail, picked: previous !== undefined && info.field in previous })),
    { title: l10n.t('{0}: fields to change', TITLE()), placeHolder: l10n.t('Select the fields to change, then press Enter; the others stay as they are'), canPickMany: true, ignoreFocusOut: true },
  );
  if (!picked || picked.length === 0) return undefined;
  return picked.map((p) => p.info);
}

/** A value given before, as input box text (never for the secret token). */
function asText(v: unknown): string | undefined {
  return Array.isArray(v) ? v.join(', ') : typeof v === 'string' ? v : undefined;
}

async function askValues(fields: IntegrationFieldInfo[], previous?: IntegrationChanges, known?: KnownIntegration): Promise<IntegrationChanges | undefined> {
  const changes: Record<string, unknown> = {};
  for (const [i, info] of fields.entries()) {
    // The value given before (Edit and Retry), else the one the service last returned, to edit.
    const now = currentValue(known, info.field);
    const answer = await askParsed({
      title: `${TITLE()} (${i + 1}/${fields.length}): ${info.label}`,
      prompt: now !== undefined ? l10n.t('{0} (now: {1})', info.prompt, now || l10n.t('empty')) : info.prompt,
      placeHolder: info.placeholder,
      password: info.secret,
      value: info.secret ? undefined : asText((previous as Record<string, unknown> | undefined)?.[info.field]) ?? now,
    }, (v) => parseField(info.field, v));
    if (answer === undefined) return undefined;
    changes[info.field] = answer.value;
  }
  return changes as IntegrationChanges;
}

/**
 * The command; with `arg` ({uuid, name?, orgAllowlist?, baseUrl?, gatewayPrefix?, token?})
 * no input is asked. `previous` prefills the wizard (Edit and Retry after a refused value).
 */
export async function updateIntegration(deps: AccountDeps, arg?: UpdateIntegrationArgs, previous?: { uuid: string; changes: IntegrationChanges }): Promise<Outcome<UpdateIntegrationResult>> {
  let uuid: string | undefined;
  let changes: IntegrationChanges | undefined;
  if (arg && Object.keys(arg).length > 0) {
    const u = parseUuid(arg.uuid);
    if (!u.ok) return invalid(deps, u.message);
    const c = parseIntegrationChanges(arg as Record<string, unknown>);
    if (!c.ok) return invalid(deps, c.message);
    uuid = u.value;
    changes = c.value;
  }
  const got = await requireClient(deps, l10n.t('update an integration'));
  if ('failure' in got) return got.failure;
  const interactive = uuid === undefined;
  if (interactive && !previous && !(await mayTry(deps, 'updateIntegration'))) return cancelled();
  if (uuid === undefined) {
    uuid = await askUuid(deps, previous?.uuid);
    if (uuid === undefined) return cancelled();
  }
  if (changes === undefined) {
    const fields = await askFields(previous?.changes);
    if (!fields) return cancelled();
    changes = await askValues(fields, previous?.changes, deps.known?.integration(uuid));
    if (!changes) return cancelled();
  }

  const id = uuid;
  const request = toIntegrationUpdate(changes);
  const changed = changedFieldLabels(changes);
  const title = changesReverify(changes) ? l10n.t('Updating the integration and verifying its credentials…') : l10n.t('Updating the integration…');
  const given = changes;
  const retry = interactive ? { title: l10n.t('Edit and Retry'), run: () => updateIntegration(deps, undefined, { uuid: id, changes: given }) } : undefined;
  const result = await runWithProgress(title, l10n.t('update integration {0}', id), deps, () => got.client.updateIntegration(id, request), retry);
  if (!result.ok) return result;
  const { integration, credentialsVerified } = result.value;
  await deps.known?.rememberIntegration(id, integration, changes.name);
  const message = integrationUpdateSummary(integration?.name ?? changes.name ?? id, changes, credentialsVerified)
    + (integration?.expired ? l10n.t(' The integration is marked as expired: replace its token.') : '');
  deps.log.info(`Updated integration ${id} (${changed.join(', ')}); credentials verified: ${credentialsVerified ?? 'not said'}.`);
  const warn = integration?.expired === true || (changesReverify(changes) && credentialsVerified === false);
  void (warn ? deps.notifier.warn(message) : deps.notifier.info(message));
  return { ok: true, value: { integration, credentialsVerified, changed, message } };
}
