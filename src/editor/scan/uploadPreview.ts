// Preview Upload: per workspace folder, every file a scan would upload (a tree with sizes),
// the totals, and every file left out with the reason. The files are chosen by exactly the
// selection a scan runs, with the same settings, so what this view shows is what leaves the
// machine. Names come from the repository: they are labels, never Markdown or commands.
import * as vscode from 'vscode';
import { formatBytes } from '../../core/workspace/selectFiles';
import { scannableFolders, selectForScan } from './fileChoice';
import { leftOutGroups, previewTree, type LeftOutGroup, type PreviewDir } from '../../core/workspace/uploadPreview';
import { CONTEXT_KEYS } from '../commands/contextKeys';
import { setContext } from '../commands/manager';
import type { SomeCommandHandlers } from '../commands/signatures';
import type { Ctx } from '../context';
import { DisposableObject } from '../disposable';
import type { ProjectName } from '../../core/workspace/projectName';
import { describeProject, folderProject, repositorySettingNotes } from '../settings';
import { leaveOutBinaryContent, type ContentChecked } from '../../core/workspace/binaryContent';
import { formatNumber, l10n, plural } from '../../core/text/l10n';

export const UPLOAD_PREVIEW_VIEW_ID = 'codeScanner.uploadPreview';

/** `chosen`: the selection with the files whose content is binary left out, as packaging leaves them out. */
interface FolderPreview { folder: vscode.WorkspaceFolder; project: ProjectName; chosen: ContentChecked; tree: PreviewDir; leftOut: LeftOutGroup[] }

type Node =
  | { kind: 'folder'; preview: FolderPreview }
  | { kind: 'uploaded'; preview: FolderPreview }
  | { kind: 'dir'; preview: FolderPreview; dir: PreviewDir }
  | { kind: 'file'; preview: FolderPreview; path: string; size: number }
  | { kind: 'leftOut'; preview: FolderPreview }
  | { kind: 'reason'; preview: FolderPreview; group: LeftOutGroup }
  | { kind: 'skipped'; preview: FolderPreview; path: string; reason: string };

/** What Preview Upload returns: per folder, the totals and lists the view shows. */
export interface UploadPreviewSummary {
  folders: { folder: string; project: string; files: string[]; bytes: number; leftOut: { path: string; reason: string }[] }[];
  /** What the view says above the files. */
  message?: string;
}

export class UploadPreviewView extends DisposableObject implements vscode.TreeDataProvider<Node> {
  private readonly changed = this.own(new vscode.EventEmitter<Node | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private readonly view: vscode.TreeView<Node>;
  private previews: FolderPreview[] = [];

  constructor() {
    super();
    this.view = this.own(vscode.window.createTreeView(UPLOAD_PREVIEW_VIEW_ID, { treeDataProvider: this, showCollapseAll: true }));
  }

  /** Chooses the files of every folder again and shows them; the view is revealed. */
  async show(): Promise<UploadPreviewSummary> {
    const folders = scannableFolders();
    this.previews = await vscode.window.withProgress({ location: { viewId: UPLOAD_PREVIEW_VIEW_ID }, title: l10n.t('Choosing files') }, async () => {
      const out: FolderPreview[] = [];
      for (const folder of folders) {
        const [selection, project] = await Promise.all([selectForScan(folder, true), folderProject(folder)]);
        const chosen = await leaveOutBinaryContent(selection);
        out.push({ folder, project, chosen, tree: previewTree(chosen.files), leftOut: leftOutGroups(chosen.skipped) });
      }
      return out;
    });
    const files = this.previews.reduce((n, p) => n + p.chosen.files.length, 0);
    const bytes = this.previews.reduce((n, p) => n + p.chosen.totalBytes, 0);
    const to = this.previews.length === 1 ? l10n.t(' to project {0}', this.previews[0].project.name) : '';
    const restricted = vscode.workspace.isTrusted ? ''
      : l10n.t(' Restricted Mode: files were chosen without running git (by the .gitignore files), and nothing the repository names was run; a scan needs a trusted workspace and may choose differently.');
    const narrowed = folders.flatMap((f) => repositorySettingNotes(f).map((n) => `${folders.length > 1 ? `${f.name}: ` : ''}${n}`));
    const settingsNote = narrowed.length ? l10n.t(' Note: {0}.', narrowed.join('; ')) : '';
    this.view.message = folders.length
      ? l10n.t('A scan would upload {0} ({1}){2}; files left out are listed with why.{3}{4}', plural(files, l10n.t('{0} file'), l10n.t('{0} files')), formatBytes(bytes), to, settingsNote, restricted)
      : l10n.t('Open a folder to see what a scan would upload.');
    await setContext(CONTEXT_KEYS.uploadPreviewShown, true);
    this.changed.fire(undefined);
    await vscode.commands.executeCommand(`${UPLOAD_PREVIEW_VIEW_ID}.focus`);
    return this.summary();
  }

  async hide(): Promise<void> {
    this.previews = [];
    this.changed.fire(undefined);
    await setContext(CONTEXT_KEYS.uploadPreviewShown, false);
  }

  summary(): UploadPreviewSummary {
    return {
      message: this.view.message,
      folders: this.previews.map((p) => ({
        folder: p.folder.name,
        project: p.project.name,
        files: p.chosen.files.map((f) => f.path),
        bytes: p.chosen.totalBytes,
        leftOut: p.chosen.skipped.map((s) => ({ path: s.path, reason: s.reason })),
      })),
    };
  }

  getChildren(node?: Node): Node[] {
    if (!node) {
      if (this.previews.length === 1) return this.folderChildren(this.previews[0]!);
      return this.previews.map((preview) => ({ kind: 'folder', preview }));
    }
    switch (node.kind) {
      case 'folder': return this.folderChildren(node.preview);
      case 'uploaded': return this.dirChildren(node.preview, node.preview.tree);
      case 'dir': return this.dirChildren(node.preview, node.dir);
      case 'leftOut': return node.preview.leftOut.map((group) => ({ kind: 'reason', preview: node.preview, group }));
      case 'reason': return node.group.items.map((s) => ({ kind: 'skipped', preview: node.preview, path: s.path, reason: node.group.label }));
      default: return [];
    }
  }

  private folderChildren(preview: FolderPreview): Node[] {
    const out: Node[] = [{ kind: 'uploaded', preview }];
    if (preview.leftOut.length) out.push({ kind: 'leftOut', preview });
    return out;
  }

  private dirChildren(preview: FolderPreview, dir: PreviewDir): Node[] {
    return [
      ...dir.dirs.map((d): Node => ({ kind: 'dir', preview, dir: d })),
      ...dir.files.map((f): Node => ({ kind: 'file', preview, path: f.path, size: f.size })),
    ];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    const { Collapsed, Expanded, None } = vscode.TreeItemCollapsibleState;
    const s = node.preview.chosen;
    switch (node.kind) {
      case 'folder': {
        const item = new vscode.TreeItem(node.preview.folder.name, Expanded);
        item.description = l10n.t('project {0} · {1}, {2}; {3} left out', node.preview.project.name, plural(s.files.length, l10n.t('{0} file'), l10n.t('{0} files')), formatBytes(s.totalBytes), formatNumber(s.skipped.length));
        item.tooltip = describeProject(node.preview.project);
        item.iconPath = vscode.ThemeIcon.Folder;
        return spoken(item, l10n.t('Folder {0}, {1}', node.preview.folder.name, item.description));
      }
      case 'uploaded': {
        const item = new vscode.TreeItem('Uploaded', s.files.length ? Expanded : None);
        item.description = `${plural(s.files.length, l10n.t('{0} file'), l10n.t('{0} files'))}, ${formatBytes(s.totalBytes)}`;
        item.iconPath = new vscode.ThemeIcon('cloud-upload');
        item.tooltip = l10n.t('What a full scan of this folder sends to the service, chosen exactly as the scan chooses. {0}.', describeProject(node.preview.project));
        return spoken(item, l10n.t('Uploaded, {0}', item.description));
      }
      case 'dir': {
        const item = new vscode.TreeItem(node.dir.name, Collapsed);
        item.description = `${plural(node.dir.count, l10n.t('{0} file'), l10n.t('{0} files'))}, ${formatBytes(node.dir.bytes)}`;
        item.resourceUri = vscode.Uri.joinPath(node.preview.folder.uri, ...node.dir.path.split('/'));
        item.iconPath = vscode.ThemeIcon.Folder;
        return spoken(item, l10n.t('Folder {0}, uploaded: {1}', node.dir.path, item.description));
      }
      case 'file': {
        const uri = vscode.Uri.joinPath(node.preview.folder.uri, ...node.path.split('/'));
        const item = new vscode.TreeItem(uri, None);
        item.description = formatBytes(node.size);
        item.iconPath = vscode.ThemeIcon.File;
        item.command = { command: 'vscode.open', title: l10n.t('Open'), arguments: [uri] };
        item.contextValue = 'uploadPreview.file';
        return spoken(item, l10n.t('{0}, uploaded, {1}', node.path, item.description));
      }
      case 'leftOut': {
        const item = new vscode.TreeItem(l10n.t('Left out'), Collapsed);
        item.description = plural(s.skipped.length, l10n.t('{0} file'), l10n.t('{0} files'));
        item.iconPath = new vscode.ThemeIcon('eye-closed');
        item.tooltip = l10n.t('Not uploaded: ignored by git, dependency and build folders, credential files, files over the size limit, links leaving the folder…');
        return spoken(item, l10n.t('Left out, {0}', item.description));
      }
      case 'reason': {
        const item = new vscode.TreeItem(node.group.label, Collapsed);
        item.description = String(node.group.items.length);
        return spoken(item, l10n.t('{0}, {1} left out', node.group.label, plural(node.group.items.length, l10n.t('{0} file'), l10n.t('{0} files'))));
      }
      case 'skipped': {
        const item = new vscode.TreeItem(node.path, None);
        item.iconPath = new vscode.ThemeIcon(node.path.endsWith('/') ? 'folder' : 'file');
        return spoken(item, l10n.t('{0}, left out: {1}', node.path, node.reason));
      }
    }
  }
}

/** A row read out with what it shows (its counts and sizes), not its tooltip or a bare path. */
function spoken(item: vscode.TreeItem, label: string): vscode.TreeItem {
  item.accessibilityInformation = { label };
  return item;
}

/** Preview Upload: what a scan would upload and leave out, without uploading anything. */
export function uploadPreviewFeature({ notifier, own }: Ctx) {
  const view = own(new UploadPreviewView());
  return {
    commands: {
      'codeScanner.previewUpload': async () => {
        if (!scannableFolders().length) {
          void notifier.info(l10n.t('Open a folder to see what a scan would upload.'));
          return { folders: [] };
        }
        return view.show();
      },
      'codeScanner.closeUploadPreview': () => view.hide(),
    } satisfies SomeCommandHandlers,
  };
}
