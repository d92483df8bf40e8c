// Seed records -> the resource shapes of the spec (fields exactly as its tables list them).
import type { Directory } from './auth';
import type { SeedIntegration, SeedPolicy, SeedRole, SeedTeam, SeedUser } from './types';

export function roleView(role: SeedRole, users: SeedUser[]) {
  return {
    id: role.id,
    name: role.name,
    user_count: users.filter((u) => u.active && u.role === role.id).length,
    created_at: role.created_at,
  };
}

export function memberView(u: SeedUser) {
  return { id: u.id, email: u.email, first_name: u.first_name, last_name: u.last_name };
}

export function teamView(team: SeedTeam, dir: Directory) {
  return {
    id: team.id,
    name: team.name,
    active: team.active,
    members: team.members.map((id) => dir.user(id)).filter((u): u is SeedUser => !!u).map(memberView),
    project_ids: team.project_ids,
    project_tags: team.project_tags,
    repo_url_patterns: team.repo_url_patterns,
    project_count: team.project_count,
    created_at: team.created_at,
    updated_at: team.updated_at,
  };
}

/** Never includes secure_token. */
export function integrationView(i: SeedIntegration) {
  return {
    id: i.id,
    uuid: i.uuid,
    type: i.type,
    name: i.name,
    account_id: i.account_id,
    account_name: i.account_name,
    org_allowlist: i.org_allowlist,
    base_url: i.base_url,
    gateway_prefix: i.gateway_prefix,
    expired: i.expired,
    created_at: i.created_at,
    updated_at: i.updated_at,
  };
}

export function policyView(p: SeedPolicy) {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    guidance_text: p.guidance_text,
    cwes: p.cwes,
    excludes: p.excludes,
    projects: p.projects,
    company: p.company,
    active: p.active,
    approved: p.approved,
    approved_by: p.approved_by,
    created_at: p.created_at,
    glob_pattern: p.glob_pattern,
    source_type: p.source_type,
    repo_policy_file: p.repo_policy_file,
    version: p.version,
    archived: p.archived,
    parent_policy: p.parent_policy,
    read_only: p.read_only,
    created_by_corgea: p.created_by_corgea,
  };
}
