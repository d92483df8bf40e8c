// The teams, users and integrations the service has shown this account (a team's members
// in an answer, an integration after its update), kept so the wizards can offer them by
// name instead of asking for bare ids, and show a field's current value. Per account, in
// the editor's global state; only what the service returned, never a token.
import { STATE_KEYS } from '../../core/persist/stateKeys';
import type * as vscode from 'vscode';
import type { Integration, Team } from '../../core/api';
import { memberName } from '../../core/account/format';

export interface KnownTeam { id: number; name?: string; members: number }
export interface KnownUser { id: number; label: string; email?: string }
export interface KnownIntegration { uuid: string; name?: string; orgAllowlist?: string[]; baseUrl?: string; gatewayPrefix?: string }

interface Known { teams: KnownTeam[]; users: KnownUser[]; integrations: KnownIntegration[] }

const KEY = STATE_KEYS.knownIds.key;
const MAX_TEAMS = 30;
const MAX_USERS = 300;
const MAX_INTEGRATIONS = 20;

export class KnownIds {
  constructor(private readonly state: vscode.Memento, private readonly account: () => string | undefined) {}

  private key(): string {
    return `${KEY}:${this.account() ?? 'unknown'}`;
  }

  private read(): Known {
    const k = this.state.get<Partial<Known>>(this.key());
    return { teams: Array.isArray(k?.teams) ? k.teams : [], users: Array.isArray(k?.users) ? k.users : [], integrations: Array.isArray(k?.integrations) ? k.integrations : [] };
  }

  teams(): KnownTeam[] { return this.read().teams; }
  users(): KnownUser[] { return this.read().users; }
  integrations(): KnownIntegration[] { return this.read().integrations; }
  integration(uuid: string): KnownIntegration | undefined {
    return this.read().integrations.find((i) => i.uuid.toLowerCase() === uuid.toLowerCase());
  }

  /** A team the service returned, and its members (newest first). */
  rememberTeam(team: Team): Thenable<void> {
    const k = this.read();
    const teams = [{ id: team.id, name: team.name, members: team.members?.length ?? 0 }, ...k.teams.filter((t) => t.id !== team.id)].slice(0, MAX_TEAMS);
    const users = [
      ...(team.members ?? []).map((m) => ({ id: m.id, label: memberName(m), email: m.email })),
      ...k.users.filter((u) => !(team.members ?? []).some((m) => m.id === u.id)),
    ].slice(0, MAX_USERS);
    return this.state.update(this.key(), { ...k, teams, users });
  }

  /** An integration after an update: its name and the values it has now. */
  rememberIntegration(uuid: string, i: Integration | undefined, fallbackName?: string): Thenable<void> {
    const k = this.read();
    const known: KnownIntegration = {
      uuid,
      name: i?.name ?? fallbackName,
      orgAllowlist: i?.org_allowlist,
      baseUrl: i?.base_url,
      gatewayPrefix: i?.gateway_prefix,
    };
    const integrations = [known, ...k.integrations.filter((x) => x.uuid.toLowerCase() !== uuid.toLowerCase())].slice(0, MAX_INTEGRATIONS);
    return this.state.update(this.key(), { ...k, integrations });
  }
}
