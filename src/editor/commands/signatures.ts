// The one map of the extension's commands: id -> handler signature. Each feature returns
// the handlers of its commands; extension.ts registers them all at once as one
// CommandHandlers, so a command without a handler does not compile. Internal calls go
// through Commands.execute. Adding a command: see CONTRIBUTING.md.
import type { SetupResult } from '../agent/agentSetup';
import type { CheckedFolder } from '../push/pushCheck';
import type { PoliciesSnapshot } from '../account/policiesView';
import type { ShownRoles } from '../account/roles';
import type { AddMembersResult } from '../account/teamMembers';
import type { TargetPoliciesResult } from '../account/targetPolicies';
import type { UpdateIntegrationResult } from '../account/integrationUpdate';
import type { Outcome } from '../account/common';
import type { ExportResult } from '../results/exportFindings';
import type { ReviewedFixesResult } from '../fixes/fixTargets';
import type { ScanSummary } from '../scan/scanController';
import type { SignedInUser } from '../account/user';
import type { UploadPreviewSummary } from '../scan/uploadPreview';
import type { ChatHandOff } from '../review/fixWithChat';
import type { ConnectionReport } from '../../core/network';

type Arg = unknown;

export interface CommandSignatures {
  // Session
  'codeScanner.signIn': (arg?: Arg) => Promise<SignedInUser | undefined>;
  'codeScanner.signOut': (arg?: Arg) => Promise<void>;
  'codeScanner.showLog': () => void;
  'codeScanner.checkConnection': () => Promise<ConnectionReport>;
  'codeScanner.allowServiceAddress': () => Promise<boolean>;
  'codeScanner.setUpAgentAccess': (arg?: Arg) => Promise<SetupResult | undefined>;
  // Before push
  'codeScanner.checkStagedChanges': (arg?: Arg) => Promise<CheckedFolder[]>;
  'codeScanner.checkBranchBeforePush': (arg?: Arg) => Promise<CheckedFolder[]>;
  'codeScanner.showPushCheck': () => Promise<void>;
  'codeScanner.openCiGate': () => Promise<void>;
  // Scans
  'codeScanner.scanWorkspace': (arg?: Arg) => Promise<ScanSummary | undefined>;
  'codeScanner.scanOpenFiles': (arg?: Arg) => Promise<ScanSummary | undefined>;
  'codeScanner.scanChangedFiles': (arg?: Arg) => Promise<ScanSummary | undefined>;
  'codeScanner.cancelScan': () => boolean;
  'codeScanner.showScanProgress': () => Promise<void>;
  'codeScanner.resumeUpload': (arg?: Arg) => Promise<ScanSummary | undefined>;
  'codeScanner.refreshResults': () => Promise<boolean>;
  'codeScanner.ignoreScan': (arg?: Arg) => Promise<boolean>;
  'codeScanner.clearResults': (arg?: Arg) => Promise<boolean>;
  // Review
  'codeScanner.showIssues': () => Promise<unknown>;
  'codeScanner.groupBy': (arg?: Arg) => Promise<void>;
  'codeScanner.filterByClassification': (arg?: Arg) => Promise<void>;
  'codeScanner.filterByStatus': (arg?: Arg) => Promise<void>;
  'codeScanner.clearFilters': () => Promise<void>;
  'codeScanner.copyDetails': (arg?: Arg) => Promise<void>;
  'codeScanner.showDetails': (arg?: Arg) => Promise<boolean>;
  'codeScanner.showSelectedDetails': () => Promise<boolean>;
  'codeScanner.revealInTree': (arg?: Arg) => Promise<boolean>;
  'codeScanner.fixWithChat': (arg?: Arg) => Promise<ChatHandOff | undefined>;
  'codeScanner.dismissFinding': (arg?: Arg) => Promise<boolean>;
  'codeScanner.restoreFinding': (arg?: Arg) => Promise<boolean>;
  'codeScanner.filterByUrgency': (arg?: Arg) => Promise<void>;
  'codeScanner.filterByKind': (arg?: Arg) => Promise<void>;
  'codeScanner.toggleReachableOnly': (arg?: Arg) => Promise<void>;
  'codeScanner.toggleAssignedToMe': (arg?: Arg) => Promise<void>;
  'codeScanner.toggleNewOnly': (arg?: Arg) => Promise<void>;
  'codeScanner.togglePolicyViolationsOnly': (arg?: Arg) => Promise<void>;
  // Fixes
  'codeScanner.previewFix': (arg?: Arg) => Promise<boolean>;
  'codeScanner.applyFix': (arg?: Arg) => Promise<number>;
  'codeScanner.upgradeDependency': (arg?: Arg) => Promise<number>;
  'codeScanner.copyFixVersion': (arg?: Arg) => Promise<string | undefined>;
  /** Takes back an applied fix the service says did not remove its finding (a checked fix's row, or the finding). */
  'codeScanner.undoFix': (arg?: Arg) => Promise<boolean>;
  /** Forgets the checked fixes (of the group's folder). */
  'codeScanner.clearFixChecks': (arg?: Arg) => void;
  'codeScanner.applyAllFixesInFile': (arg?: Arg) => Promise<number>;
  'codeScanner.applyAllFixes': (arg?: Arg) => Promise<ReviewedFixesResult>;
  'codeScanner.exportFindings': (arg?: Arg) => Promise<ExportResult | undefined>;
  'codeScanner.previewUpload': () => Promise<UploadPreviewSummary>;
  'codeScanner.closeUploadPreview': () => Promise<void>;
  'codeScanner.applyPreviewedFix': (arg?: Arg) => Promise<number>;
  'codeScanner.discardPreviewedFix': (arg?: Arg) => Promise<void>;
  // Account
  'codeScanner.chooseTargetPolicies': (arg?: Arg) => Promise<Outcome<TargetPoliciesResult>>;
  'codeScanner.showCompanyRoles': () => Promise<Outcome<ShownRoles>>;
  'codeScanner.addTeamMembers': (arg?: Arg) => Promise<Outcome<AddMembersResult>>;
  'codeScanner.updateIntegration': (arg?: Arg) => Promise<Outcome<UpdateIntegrationResult>>;
  'codeScanner.policies.refresh': () => Promise<PoliciesSnapshot>;
  'codeScanner.policies.filter': (arg?: Arg) => Promise<Outcome<PoliciesSnapshot>>;
  'codeScanner.policies.clearFilter': () => Promise<PoliciesSnapshot>;
  'codeScanner.policies.loadMore': (arg?: Arg) => Promise<PoliciesSnapshot>;
  'codeScanner.policies.addTarget': (node?: Arg) => Promise<Outcome<number[]>>;
  'codeScanner.policies.removeTarget': (node?: Arg) => Promise<Outcome<number[]>>;
}

export type CommandId = keyof CommandSignatures;

/** A handler for every command: what extension.ts registers (a missing one does not compile). */
export type CommandHandlers = { [K in CommandId]: CommandSignatures[K] };

/** What a feature returns for its commands (checked against the map with `satisfies`). */
export type SomeCommandHandlers = Partial<CommandHandlers>;
