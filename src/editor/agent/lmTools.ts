// Tools for the editor's AI agent (Copilot agent mode or any chat participant): list
// findings, read one, scan files, apply a fix. They go through exactly the checks of the
// commands (workspace trust, files chosen as a scan chooses them, fixes only for uploaded
// files and only while the code is as scanned); the two that send code away or change files
// ask first (VS Code shows the confirmation), unless there is nothing to confirm because
// the check already refuses. What they return marks the service's text as untrusted data.
import * as vscode from 'vscode';
import { changeListing, compactFinding, fullFinding, matchesFilter, untrustedEnvelope, type FindingFilter, type FindingRow } from '../../core/agent/toolText';
import { escapeMarkdown, oneLine } from '../../core/text/untrusted';
import { selectChangedFiles, selectGivenFiles, skipReasonLabel, type Selection } from '../../core/workspace/selectFiles';
import type { Ctx } from '../context';
import { checkFix } from '../fixes/fixTargets';
import { folderNameOf, type LocatedIssue, type ResultsStore } from '../results/resultsStore';
import { serviceHost } from '../settings';
import { scannableFolders, selectOptions } from '../scan/uploadPreview';

export const TOOL_NAMES = {
  listFindings: 'codeScanner_listFindings',
  getFinding: 'codeScanner_getFinding',
  scanFiles: 'codeScanner_scanFiles',
  applyFix: 'codeScanner_applyFix',
} as const;

const MAX_LIST = 200;
const DEFAULT_LIST = 50;

const text = (t: string) => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(t)]);

function rows(store: ResultsStore): (FindingRow & { located: LocatedIssue })[] {
  return store.all().map((located) => ({ finding: located.issue, folder: folderNameOf(located.folderUri), dismissed: !!store.dismissalOf(located.issue), located }));
}

function findRow(store: ResultsStore, input: { id?: unknown; folder?: unknown }) {
  const id = typeof input.id === 'string' ? input.id : '';
  const folder = typeof input.folder === 'string' ? input.folder : undefined;
  return rows(store).find((r) => r.finding.id === id && (!folder || r.folder === folder));
}

/** A fence longer than any run of backticks in the text, so a diff cannot end its code block. */
function fenced(body: string): string {
  const longest = Math.max(2, ...[...body.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}diff\n${body}\n${fence}`;
}


interface ListInput extends FindingFilter { limit?: number }
interface FindingInput { id: string; folder?: string }
interface ScanInput { paths?: string[]; changed?: boolean }

/** The files a scan of `input` would upload, per folder, chosen as the scan chooses them. */
async function plannedUpload(input: ScanInput): Promise<{ uris: vscode.Uri[]; selections: { folder: vscode.WorkspaceFolder; selection: Selection }[]; problem?: string }> {
  const folders = scannableFolders();
  if (!folders.length) return { uris: [], selections: [], problem: 'No folder is open in this window.' };
  if (input.changed) {
    const selections = [];
    for (const folder of folders) {
      try {
        selections.push({ folder, selection: await selectChangedFiles(folder.uri.fsPath, selectOptions(folder)) });
      } catch {
        // Not a git repository: no changed files there.
      }
    }
    return { uris: [], selections };
  }
  const paths = (input.paths ?? []).filter((p) => typeof p === 'string' && p.trim());
  if (!paths.length) return { uris: [], selections: [], problem: 'Name the files to scan (paths relative to the workspace folder), or set changed to scan what git reports as changed.' };
  const uris: vscode.Uri[] = [];
  const byFolder = new Map<vscode.WorkspaceFolder, string[]>();
  for (const p of paths) {
    const candidates = p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) ? [vscode.Uri.file(p)] : folders.map((f) => vscode.Uri.joinPath(f.uri, ...p.split(/[\\/]/)));
    const uri = candidates.find((u) => vscode.workspace.getWorkspaceFolder(u)) ?? candidates[0]!;
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (!folder || !folders.includes(folder)) continue;
    uris.push(uri);
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), uri.fsPath]);
  }
  if (!byFolder.size) return { uris, selections: [], problem: 'None of those paths is inside a folder of this workspace.' };
  const selections = [];
  for (const [folder, files] of byFolder) selections.push({ folder, selection: await selectGivenFiles(folder.uri.fsPath, files, selectOptions(folder)) });
  return { uris, selections };
}

function leftOutText(selections: { folder: vscode.WorkspaceFolder; selection: Selection }[]): string[] {
  return selections.flatMap(({ folder, selection }) => selection.skipped.map((s) => `${folder.name}/${s.path} (${skipReasonLabel(s.reason)})`));
}

export type AgentTools = Record<(typeof TOOL_NAMES)[keyof typeof TOOL_NAMES], vscode.LanguageModelTool<object>>;

/**
 * Registers the tools; returns them too, for the tests of what their confirmations say
 * (VS Code's test workbench answers confirmations by itself, without showing them).
 */
export function agentFeature({ store, scans, fixes, log, own }: Ctx): { tools: AgentTools } {
  /** Per finding: the change its confirmation showed (a digest), so only that very change is applied. */
  const confirmed = new Map<string, string>();
  const listFindings: vscode.LanguageModelTool<ListInput> = {
    invoke(options) {
      const f = options.input ?? {};
      const limit = Math.min(Math.max(1, Math.floor(Number(f.limit) || DEFAULT_LIST)), MAX_LIST);
      const matched = rows(store).filter((r) => matchesFilter(r, f));
      if (!store.hasResults()) return text('There are no scan results in this workspace yet. Run the scan tool (or Code Scanner: Scan Workspace) first.');
      const shown = matched.slice(0, limit).map(compactFinding);
      const summary = `${matched.length} finding${matched.length === 1 ? '' : 's'} match${matched.length === 1 ? 'es' : ''}${matched.length > shown.length ? `; the first ${shown.length} are listed (raise limit, up to ${MAX_LIST}, or narrow the filter)` : ''}. Read one with ${TOOL_NAMES.getFinding} by its id.`;
      return text(untrustedEnvelope(summary, shown));
    },
  };
  const getFinding: vscode.LanguageModelTool<FindingInput> = {
    invoke(options) {
      const row = findRow(store, options.input ?? {});
      if (!row) return text('No finding with that id is in the results. List findings first; ids change when a folder is scanned again.');
      // Only our own words before the envelope: the id and the folder are data (fullFinding has them).
      return text(untrustedEnvelope('The finding asked for:', fullFinding(row)));
    },
  };
  const scanFiles: vscode.LanguageModelTool<ScanInput> = {
    async prepareInvocation(options) {
      if (!vscode.workspace.isTrusted) return { invocationMessage: 'Scanning needs a trusted workspace' };
      const plan = await plannedUpload(options.input ?? {});
      const files = plan.selections.flatMap(({ folder, selection }) => selection.files.map((f) => `${folder.name}/${f.path}`));
      // Nothing would leave the machine: nothing to confirm; the tool says why.
      if (plan.problem || !files.length) return { invocationMessage: 'Checking which files a scan would upload' };
      const shown = files.slice(0, 20).map((f) => `- ${escapeMarkdown(f)}`).join('\n');
      const more = files.length > 20 ? `\n- …and ${files.length - 20} more` : '';
      const left = leftOutText(plan.selections);
      const message = new vscode.MarkdownString(
        `Upload ${files.length} file${files.length === 1 ? '' : 's'} of this workspace to ${escapeMarkdown(serviceHost())} for scanning:\n\n${shown}${more}` +
        (left.length ? `\n\nLeft out (not uploaded): ${left.slice(0, 10).map(escapeMarkdown).join(', ')}${left.length > 10 ? ', …' : ''}` : ''),
      );
      return {
        invocationMessage: `Scanning ${files.length} file${files.length === 1 ? '' : 's'}`,
        confirmationMessages: { title: 'Code Scanner: upload files for scanning?', message },
      };
    },
    async invoke(options) {
      if (!vscode.workspace.isTrusted) return text('Refused: scanning needs a trusted workspace (Workspaces: Manage Workspace Trust).');
      const input = options.input ?? {};
      const plan = await plannedUpload(input);
      // Our own words only before the envelope: file names come from the repository, scan
      // ids, notes and error texts from the service, so they go inside it as data.
      if (plan.problem) return text(`Nothing was scanned: ${plan.problem}`);
      const files = plan.selections.reduce((n, s) => n + s.selection.files.length, 0);
      if (!files) return text(untrustedEnvelope('Nothing was scanned: no file would be uploaded. The files left out, with why:', { leftOut: leftOutText(plan.selections) }));
      // The person confirmed this upload in the tool's confirmation: that is the first-scan question's answer too.
      const summary = await scans.scan(input.changed ? 'changedFiles' : 'givenFiles', { confirmed: true }, plan.uris);
      if (!summary) return text('Nothing was scanned (no sign-in, or another scan is running). Sign in with Code Scanner: Sign In and try again.');
      if (summary.error) return text(untrustedEnvelope('The scan stopped; what the service or the editor said:', { error: summary.error.message, continuesOnService: summary.continuesOnService }));
      const scanned = new Set(plan.selections.flatMap(({ folder, selection }) => selection.files.map((f) => `${folder.uri.toString()}\n${f.path}`)));
      const found = rows(store).filter((r) => scanned.has(`${r.located.folderUri}\n${r.finding.path}`) && !r.dismissed);
      const scansDone = summary.folders.map((f) => ({ folder: f.folder, filesScanned: f.files, ...(f.scanId ? { scanId: f.scanId } : {}), ...(f.note ? { note: f.note } : {}) }));
      return text(untrustedEnvelope(
        `Scanned ${files} file${files === 1 ? '' : 's'}; ${found.length} finding${found.length === 1 ? '' : 's'} in those files.`,
        { scans: scansDone, findings: found.slice(0, MAX_LIST).map(compactFinding) },
      ));
    },
  };
  const applyFixTool: vscode.LanguageModelTool<FindingInput> = {
    async prepareInvocation(options) {
      const row = findRow(store, options.input ?? {});
      const check = row ? await checkFix(row.located) : undefined;
      if (!row || !check?.ok) return { invocationMessage: 'Checking the fix' };
      // The change as it will be made to the file as it is now, whole: what is confirmed is what is applied.
      const change = changeListing(check.document.getText(), check.fixed);
      if (change.tooLarge) return { invocationMessage: 'Checking the fix' };
      confirmed.set(row.finding.id, change.digest);
      const i = row.finding;
      return {
        invocationMessage: 'Applying the fix',
        confirmationMessages: {
          title: 'Code Scanner: apply the suggested fix?',
          message: new vscode.MarkdownString(
            `${escapeMarkdown(`${row.folder}/${i.path}`)}, line ${i.range ? i.range.start.line + 1 : i.line}: ${escapeMarkdown(oneLine(i.classificationName, 120))}\n\n` +
            `${escapeMarkdown(oneLine(i.fix!.explanation || 'Suggested fix', 300))}\n\nThe whole change to the file:\n\n${fenced(change.text)}\n\nThe file is edited, not saved; Undo takes the fix back.`,
          ),
        },
      };
    },
    async invoke(options) {
      const row = findRow(store, options.input ?? {});
      if (!row) return text('No finding with that id is in the results. List findings first.');
      const check = await checkFix(row.located);
      if (!check.ok) return text(`Refused, nothing changed: ${check.message}`);
      const change = changeListing(check.document.getText(), check.fixed);
      if (change.tooLarge) return text(`Refused, nothing changed: ${change.why}`);
      // Exactly what was confirmed, or nothing: the file may have changed since.
      if (confirmed.get(row.finding.id) !== change.digest) return text('Refused, nothing changed: the file changed since the change was shown for confirmation. Ask again to see the change as it is now.');
      confirmed.delete(row.finding.id);
      const applied = await fixes.apply([{ folderUri: row.located.folderUri, issueId: row.finding.id }]);
      return text(applied
        ? untrustedEnvelope('Applied the fix. The file is edited but not saved; the finding left the results (Undo brings both back). The file:', { folder: row.folder, path: row.finding.path })
        : 'The fix was not applied; the editor refused the change.');
    },
  };
  const tools: AgentTools = {
    [TOOL_NAMES.listFindings]: listFindings,
    [TOOL_NAMES.getFinding]: getFinding,
    [TOOL_NAMES.scanFiles]: scanFiles,
    [TOOL_NAMES.applyFix]: applyFixTool,
  } as AgentTools;
  if (!vscode.lm?.registerTool) {
    log.info('This editor has no language model tools API; the agent tools are not offered.');
    return { tools };
  }
  for (const [name, tool] of Object.entries(tools)) own(vscode.lm.registerTool(name, tool));
  return { tools };
}
