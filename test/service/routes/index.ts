// The route table: every operation of the spec, below /api/v1.
import { headTransfer, patchChunk } from './chunks';
import type { AnswerMode } from '../shapes';
import { LIST_IDS } from '../types';
import type { Route } from './context';
import { updateIntegration } from './integrations';
import { listPolicies } from './policies';
import { listIssues } from './issueLists';
import { checkBlockingRules } from './blockingRules';
import { listRoles } from './roles';
import { scanStatus } from './scanStatus';
import { listScans } from './scans';
import { startScan } from './startScan';
import { addTeamMembers } from './teams';
import { verify } from './verify';

// Permissions for the operations the spec leaves open are documented in seed.json ($comment).
export const ROUTES: Route[] = [
  { id: 'verify', method: 'GET', path: '/verify', verifyStyle401: true, handler: verify },
  { id: 'roles', method: 'GET', path: '/roles', permission: 'user_management.view_permissiongroup', handler: listRoles },
  { id: 'teamMembers', method: 'POST', path: '/teams/:team_id/members', permission: 'teams.manage_team', handler: addTeamMembers },
  { id: 'integrationUpdate', method: 'PATCH', path: '/integrations/pipelineprovider/:integration_uuid', permission: 'integrations.manage_integration', handler: updateIntegration },
  { id: 'policies', method: 'GET', path: '/policies', permission: 'policies.view_policy', handler: listPolicies },
  { id: 'securityIssues', method: 'GET', path: '/scan/:scan_id/issues', permission: 'scans.view_scan', list: 'security', handler: listIssues('security') },
  { id: 'qualityIssues', method: 'GET', path: '/scan/:scan_id/issues/quality', permission: 'scans.view_scan', list: 'quality', handler: listIssues('quality') },
  { id: 'dependencyIssues', method: 'GET', path: '/scan/:scan_id/issues/sca', permission: 'scans.view_scan', list: 'dependency', handler: listIssues('dependency') },
  { id: 'blockingRules', method: 'GET', path: '/scan/:scan_id/check_blocking_rules', permission: 'scans.view_scan', handler: checkBlockingRules },
  { id: 'scans', method: 'GET', path: '/scans', permission: 'scans.view_scan', handler: listScans },
  { id: 'scanStatus', method: 'GET', path: '/scan/:scan_id', permission: 'scans.view_scan', realShapesOnly: true, handler: scanStatus },
  { id: 'startScan', method: 'POST', path: '/start-scan', permission: 'scans.create_scan', handler: startScan },
  // The trailing slash is part of these paths (spec); without it the route does not exist.
  { id: 'headTransfer', method: 'HEAD', path: '/start-scan/:transfer_id/', permission: 'scans.create_scan', handler: headTransfer },
  { id: 'patchChunk', method: 'PATCH', path: '/start-scan/:transfer_id/', permission: 'scans.create_scan', handler: patchChunk },
];

export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const a = pattern.split('/');
  const b = path.split('/');
  if (a.length !== b.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < a.length; i++) {
    if (a[i].startsWith(':')) {
      if (b[i] === '') return undefined;
      try {
        params[a[i].slice(1)] = decodeURIComponent(b[i]);
      } catch {
        return undefined;
      }
    } else if (a[i] !== b[i]) return undefined;
  }
  return params;
}

/**
 * The route for method+path; `allowed` lists the methods of a path that exists with another
 * method. A list the mode leaves out is no route at all, as on a service that lacks it.
 */
export function findRoute(method: string, path: string, mode: Pick<AnswerMode, 'shapes' | 'lists'> = { shapes: 'seed' }): { match?: RouteMatch; allowed: string[] } {
  const allowed: string[] = [];
  const lists = mode.lists ?? LIST_IDS;
  for (const route of ROUTES) {
    if (route.realShapesOnly && mode.shapes !== 'real') continue;
    if (route.list && !lists.includes(route.list)) continue;
    const params = matchPath(route.path, path);
    if (!params) continue;
    if (route.method === method) return { match: { route, params }, allowed };
    allowed.push(route.method);
  }
  return { allowed };
}
