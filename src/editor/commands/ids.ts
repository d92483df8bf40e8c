// Every command id at run time, with how people reach it: `palette` commands are offered in
// the command palette (under their `when` clause); `hidden` ones take an argument (a finding,
// a tree node) and are reached from menus, code actions or code only. The type makes this
// list and CommandSignatures name exactly the same commands.
import type { CommandId } from './signatures';

export type CommandReach = 'palette' | 'hidden';

export const COMMANDS: { readonly [K in CommandId]: CommandReach } = {
  'codeScanner.signIn': 'palette',
  'codeScanner.signOut': 'palette',
  'codeScanner.showLog': 'palette',
  'codeScanner.checkConnection': 'palette',
  'codeScanner.scanWorkspace': 'palette',
  'codeScanner.scanOpenFiles': 'palette',
  'codeScanner.scanChangedFiles': 'palette',
  'codeScanner.cancelScan': 'palette',
  'codeScanner.showScanProgress': 'palette',
  'codeScanner.resumeUpload': 'palette',
  'codeScanner.refreshResults': 'palette',
  'codeScanner.ignoreScan': 'palette',
  'codeScanner.clearResults': 'palette',
  'codeScanner.showIssues': 'hidden',
  'codeScanner.groupBy': 'palette',
  'codeScanner.filterByClassification': 'palette',
  'codeScanner.filterByStatus': 'palette',
  'codeScanner.clearFilters': 'palette',
  'codeScanner.copyDetails': 'hidden',
  'codeScanner.showDetails': 'palette',
  'codeScanner.fixWithChat': 'palette',
  'codeScanner.dismissFinding': 'palette',
  'codeScanner.restoreFinding': 'hidden',
  'codeScanner.filterByUrgency': 'palette',
  'codeScanner.toggleReachableOnly': 'palette',
  'codeScanner.toggleAssignedToMe': 'palette',
  'codeScanner.toggleNewOnly': 'palette',
  'codeScanner.togglePolicyViolationsOnly': 'palette',
  'codeScanner.applyPreviewedFix': 'hidden',
  'codeScanner.discardPreviewedFix': 'hidden',
  'codeScanner.previewFix': 'hidden',
  'codeScanner.applyFix': 'hidden',
  'codeScanner.applyAllFixesInFile': 'palette',
  'codeScanner.applyAllFixes': 'palette',
  'codeScanner.exportFindings': 'palette',
  'codeScanner.previewUpload': 'palette',
  'codeScanner.closeUploadPreview': 'palette',
  'codeScanner.chooseTargetPolicies': 'palette',
  'codeScanner.showCompanyRoles': 'palette',
  'codeScanner.addTeamMembers': 'palette',
  'codeScanner.updateIntegration': 'palette',
  'codeScanner.policies.refresh': 'palette',
  'codeScanner.policies.filter': 'palette',
  'codeScanner.policies.clearFilter': 'palette',
  'codeScanner.policies.loadMore': 'hidden',
  'codeScanner.policies.addTarget': 'hidden',
  'codeScanner.policies.removeTarget': 'hidden',
};

export const COMMAND_IDS = Object.keys(COMMANDS) as CommandId[];
