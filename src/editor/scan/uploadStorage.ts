import { createHash } from 'node:crypto';
import { STATE_KEYS } from '../../core/persist/stateKeys';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { ReuseCache } from '../../core/archive/reuseCache';
import { TrackedCleanStore } from '../../core/workspace/trackedClean';
import { ArchivedFiles } from '../../core/scan/archivedFiles';
import type { FolderUploads } from '../../core/scan/pipeline';
import type { SavedTransfer, TransferStore } from '../../core/upload/transferStore';
import type { FolderWatch } from './folderWatch';

const KEY_PREFIX = STATE_KEYS.transfer.key;

/**
 * An interrupted upload of one workspace folder, kept in workspaceState so that a reload
 * (or a crash) can offer to resume it. The archive itself lives in the extension's
 * workspace storage, never inside the workspace.
 */
export class FolderTransferStore implements TransferStore {
  constructor(private readonly state: vscode.Memento, readonly folderUri: string, private readonly changed: () => void = () => undefined) {}

  private get key(): string {
    return KEY_PREFIX + this.folderUri;
  }

  async load(): Promise<SavedTransfer | undefined> {
    return this.state.get<SavedTransfer>(this.key);
  }

  async save(t: SavedTransfer): Promise<void> {
    const had = this.state.get(this.key) !== undefined;
    await this.state.update(this.key, t);
    if (!had) this.changed();
  }

  async clear(): Promise<void> {
    if (this.state.get(this.key) === undefined) return;
    await this.state.update(this.key, undefined);
    this.changed();
  }
}

/** An upload that was saved to resume: its folder, size and when it started. */
export interface WaitingUpload { folderUri: string; size: number; createdAt: string }

/**
 * Where uploads live between reloads: the saved transfer of each folder (workspaceState),
 * the archives being uploaded and the file list of every uploaded archive (the extension's
 * storage, never the workspace).
 */
export class UploadStorage {
  private readonly listeners = new Set<() => void>();

  /** `watch`: what VS Code's watcher saw in each folder, so a re-scan need not walk it again. */
  constructor(private readonly context: vscode.ExtensionContext, private readonly watch?: FolderWatch) {}

  /** Told when an upload is saved to resume, or no longer is (resumed, discarded, replaced). */
  onDidChangeWaiting(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** The uploads saved to resume, as the workspace's state holds them now (a running upload's too). */
  waiting(): WaitingUpload[] {
    return this.context.workspaceState.keys().filter((k) => k.startsWith(KEY_PREFIX)).flatMap((k) => {
      const t = this.context.workspaceState.get<SavedTransfer>(k);
      return t ? [{ folderUri: k.slice(KEY_PREFIX.length), size: t.size, createdAt: t.createdAt }] : [];
    });
  }

  private get storageRoot(): string {
    return this.context.storageUri?.fsPath ?? this.context.globalStorageUri.fsPath;
  }

  forFolder(folderUri: string): FolderTransferStore {
    return new FolderTransferStore(this.context.workspaceState, folderUri, () => { for (const l of [...this.listeners]) l(); });
  }

  /** What the scan pipeline needs for one folder's uploads. */
  async uploadsOf(store: FolderTransferStore): Promise<FolderUploads> {
    return {
      store,
      archiveRoot: await this.archiveRoot(),
      archivedFiles: this.archivedFiles(),
      discard: () => this.discard(store),
      deleteArchive: (p) => this.deleteArchive(p),
      reuse: this.reuseCache(store.folderUri),
      gitClean: new TrackedCleanStore(path.join(this.folderStateDir(store.folderUri), 'git-clean.json')),
      changes: this.watch?.journalOf(store.folderUri),
    };
  }

  /** The folder's last full-scan archive, kept so a re-scan copies what did not change. */
  reuseCache(folderUri: string): ReuseCache {
    return new ReuseCache(this.folderStateDir(folderUri));
  }

  /** Where what one folder's last scan leaves for the next is kept. */
  private folderStateDir(folderUri: string): string {
    const key = createHash('sha256').update(folderUri).digest('hex').slice(0, 24);
    return path.join(this.storageRoot, 'reuse', key);
  }

  /** Every saved (interrupted) upload of this workspace. */
  async pending(): Promise<{ store: FolderTransferStore; transfer: SavedTransfer }[]> {
    const out: { store: FolderTransferStore; transfer: SavedTransfer }[] = [];
    for (const key of this.context.workspaceState.keys()) {
      if (!key.startsWith(KEY_PREFIX)) continue;
      const store = this.forFolder(key.slice(KEY_PREFIX.length));
      const transfer = await store.load();
      if (transfer) out.push({ store, transfer });
    }
    return out;
  }

  /** The file lists of uploaded archives (which files a fix may change). */
  archivedFiles(): ArchivedFiles {
    return new ArchivedFiles(path.join(this.storageRoot, 'archived-files'));
  }

  /** Where archives are built; kept across reloads so an upload can resume. */
  async archiveRoot(): Promise<string> {
    const dir = path.join(this.storageRoot, 'archives');
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    return dir;
  }

  /** Deletes a saved upload and its archive (buildZip puts each archive in its own folder). */
  async discard(store: FolderTransferStore): Promise<void> {
    const t = await store.load();
    await store.clear();
    if (t) await this.deleteArchive(t.archivePath);
  }

  async deleteArchive(archivePath: string): Promise<void> {
    const root = await this.archiveRoot();
    const dir = path.dirname(archivePath);
    // Only ever delete what we created under our own storage.
    if (path.dirname(dir) === root) await fs.rm(dir, { recursive: true, force: true });
    else await fs.rm(archivePath, { force: true });
  }

  /** Removes archives no saved upload refers to (left by a crash mid-packaging). */
  async sweep(): Promise<void> {
    const root = await this.archiveRoot();
    const keep = new Set((await this.pending()).map((p) => path.dirname(p.transfer.archivePath)));
    for (const name of await fs.readdir(root)) {
      const dir = path.join(root, name);
      if (!keep.has(dir)) await fs.rm(dir, { recursive: true, force: true });
    }
  }

  /** Drops the file lists of archives that no stored scan (`digests`) or interrupted upload refers to. */
  async pruneArchivedFiles(digests: readonly string[]): Promise<void> {
    const keep = [...digests, ...(await this.pending()).map((p) => p.transfer.sha256)];
    await this.archivedFiles().prune(keep);
  }
}
