import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { StoredCookie, UploadFields } from '../api';

/** Everything needed to resume an upload from another process: the id, and what was being sent. */
export interface SavedTransfer {
  transferId: string;
  archivePath: string;
  archiveName: string;
  size: number;
  sha256: string;
  fields: UploadFields;
  /** ISO date-time the transfer was started. */
  createdAt: string;
  /** Workspace folder the archive was made from, for messages. */
  folder?: string;
  /** The service origin the transfer was started with: its cookies go nowhere else. */
  origin?: string;
  /** Cookies the service set for this transfer (affinity to one of its instances): a resume sends them again. */
  cookies?: StoredCookie[];
  /** What the scan left out of the archive and why, so a resumed upload's message says it as the scan's would. */
  leftOut?: { path: string; reason: string }[];
  /** A whole git folder's archive: what git ignores was left out too, not listed in `leftOut`. */
  gitIgnoredNotListed?: boolean;
}

/** Where the engine keeps the one resumable transfer. The extension backs it with its storage. */
export interface TransferStore {
  load(): Promise<SavedTransfer | undefined>;
  save(t: SavedTransfer): Promise<void>;
  clear(): Promise<void>;
}

export class MemoryTransferStore implements TransferStore {
  private value: SavedTransfer | undefined;

  constructor(initial?: SavedTransfer) {
    this.value = initial && structuredClone(initial);
  }

  async load(): Promise<SavedTransfer | undefined> {
    return this.value && structuredClone(this.value);
  }

  async save(t: SavedTransfer): Promise<void> {
    this.value = structuredClone(t);
  }

  async clear(): Promise<void> {
    this.value = undefined;
  }
}

/** A JSON file (mode 0600), written atomically so a crash never leaves half a record. */
export class FileTransferStore implements TransferStore {
  constructor(private readonly filePath: string) {}

  async load(): Promise<SavedTransfer | undefined> {
    let text: string;
    try {
      text = await fsp.readFile(this.filePath, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
    try {
      const v: unknown = JSON.parse(text);
      return isSavedTransfer(v) ? v : undefined;
    } catch {
      // A damaged record cannot be resumed; behave as if there were none.
      return undefined;
    }
  }

  async save(t: SavedTransfer): Promise<void> {
    await fsp.mkdir(path.dirname(this.filePath), { recursive: true });
    const tmp = `${this.filePath}.${process.pid}.tmp`;
    await fsp.writeFile(tmp, JSON.stringify(t, null, 2), { mode: 0o600 });
    await fsp.rename(tmp, this.filePath);
  }

  async clear(): Promise<void> {
    await fsp.rm(this.filePath, { force: true });
  }
}

export function isSavedTransfer(v: unknown): v is SavedTransfer {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    typeof o.transferId === 'string' && o.transferId.length > 0 &&
    typeof o.archivePath === 'string' &&
    typeof o.archiveName === 'string' &&
    typeof o.size === 'number' && Number.isSafeInteger(o.size) && o.size >= 0 &&
    typeof o.sha256 === 'string' && /^[0-9a-f]{64}$/.test(o.sha256) &&
    typeof o.fields === 'object' && o.fields !== null &&
    typeof o.createdAt === 'string' &&
    (o.folder === undefined || typeof o.folder === 'string')
  );
}
