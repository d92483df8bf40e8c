import { promises as fsp, realpathSync } from 'node:fs';
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { createHash } from 'node:crypto';
import { CREDENTIAL_FILE_PATTERNS, credentialMatcher } from './credentials';
import { BINARY_ASSET_EXTENSIONS, DEFAULT_EXCLUDED_DIRS, DEFAULT_EXCLUDED_FILES, defaultExcludeMatcher, isBinaryAssetName } from './defaultExcludes';
import type { FolderVerdict, PathMatcher } from './fastMatcher';
import type { FileList } from './fileList';
import { boundPatterns } from './patterns';
import { absolutePathOf, compareBytes, isInside, lstatQuiet } from './pathsOnDisk';
import { DEFAULT_MAX_FILE_SIZE_BYTES, MAX_EXCLUDE_GLOBS, type Selection, type SelectOptions, type SkippedFile, type SkipReason } from './selection';
import { l10n } from '../text/l10n';

/** The rules of one selection (the folder, its limits, the matchers) and what it left out so far. */
export interface SelectionContext {
  root: string;
  rulesKey: string;
  realRoot: string;
  maxSize: number;
  partial: boolean;
  defaults: PathMatcher;
  user: Ignore | undefined;
  credentials: PathMatcher;
  /** The user's choice of credential files to upload anyway. */
  allowed: Ignore | undefined;
  skipped: SkippedFile[];
  notes: string[];
  skip(p: string, reason: SkipReason): void;
  finish(files: FileList): Selection;
}

/**
 * Part of Selection.rulesKey: raise it with any change to the code that judges a path
 * (fileExclusion and what it calls, isSafeRelative, the matchers), so that files recorded
 * under the old code are judged again rather than taken on the old verdict.
 */
// 2: packaging leaves out files whose content is binary (binaryContent.ts); archives made before may hold some.
const RULES_VERSION = 2;

export async function makeContext(rootIn: string, opts: SelectOptions, o: { partial?: boolean } = {}): Promise<SelectionContext> {
  const root = path.resolve(rootIn);
  let realRoot: string;
  try {
    realRoot = await fsp.realpath(root);
    if (!(await fsp.stat(realRoot)).isDirectory()) throw new Error(l10n.t('not a directory'));
  } catch {
    throw new Error(l10n.t('The folder "{0}" does not exist or is not a directory.', rootIn));
  }
  const raw = (opts.excludeGlobs ?? []).map((g) => g.trim()).filter((g) => g.length > 0 && !g.startsWith('#'));
  if (raw.length > MAX_EXCLUDE_GLOBS) {
    throw new Error(l10n.t('The setting codeScanner.excludeGlobs has {0} patterns; at most {1} are supported. Combine them (for example "docs/**" instead of one pattern per file).', raw.length, MAX_EXCLUDE_GLOBS));
  }
  const globs = boundPatterns(raw, 'codeScanner.excludeGlobs');
  const maxSize = opts.maxFileSizeBytes ?? DEFAULT_MAX_FILE_SIZE_BYTES;
  if (!(maxSize > 0)) throw new Error(l10n.t('The maximum file size must be a positive number of bytes (got {0}).', maxSize));
  const allow = boundPatterns(opts.allowCredentialFiles ?? [], 'codeScanner.uploadCredentialFiles').patterns;
  const skipped: SkippedFile[] = [];
  const notes = [...globs.notes];
  const rulesKey = createHash('sha256').update(JSON.stringify([
    RULES_VERSION, o.partial === true, maxSize, globs.patterns, allow,
    DEFAULT_EXCLUDED_DIRS, DEFAULT_EXCLUDED_FILES, [...BINARY_ASSET_EXTENSIONS], CREDENTIAL_FILE_PATTERNS,
  ])).digest('hex');
  return {
    root,
    rulesKey,
    realRoot,
    maxSize,
    partial: o.partial === true,
    defaults: defaultExcludeMatcher(),
    user: globs.patterns.length ? ignore().add(globs.patterns) : undefined,
    credentials: credentialMatcher(),
    allowed: allow.length ? ignore({ ignorecase: true }).add([...allow]) : undefined,
    skipped,
    notes,
    skip: (p, reason) => skipped.push({ path: p, reason }),
    finish: (files) => {
      skipped.sort((a, b) => compareBytes(a.path, b.path));
      return { root, files, skipped, totalBytes: files.totalBytes, notes, rulesKey };
    },
  };
}

/**
 * Names that zip readers rewrite or refuse: a leading `word:` (read as a drive letter),
 * leading `../` or `/`, backslashes and doubled slashes. Such a file would be unpacked
 * under another name on the service (two files could collide), so it is left out instead.
 */
export function zipWouldRename(rel: string): boolean {
  return /^\w+:/.test(rel) || rel.startsWith('/') || rel.startsWith('../') || rel.includes('\\') || rel.includes('//');
}

/** What a folder's path decides for the files in it. */
export interface FolderState {
  defaults: FolderVerdict;
  credentials: FolderVerdict;
  /**
   * False when the folder, or one above it, is a symlink leading out of the workspace;
   * undefined until a file in it needs to know (FolderChain.inside).
   */
  inside?: boolean;
}

/**
 * Name-based exclusion, cheapest first; undefined when the path may be included. `kept`:
 * the repository keeps the path on purpose (git tracks it, or a .gitignore re-includes it),
 * so the default excludes do not apply; the user's own excludes and the credential rule do.
 */
export function nameExclusion(ctx: SelectionContext, rel: string, kept = false): SkipReason | undefined {
  if (!kept && ctx.defaults(rel)) return 'default-exclude';
  if (isBinaryAssetName(rel)) return 'binary';
  if (ctx.credentials(rel) && !ctx.allowed?.ignores(rel)) return 'credentials';
  return userOrNameExclusion(ctx, rel);
}

/** nameExclusion for a file whose folder was judged already. */
export function fileExclusion(ctx: SelectionContext, folder: FolderState, name: string, rel: string, kept: boolean): SkipReason | undefined {
  if (!kept && ctx.defaults.file(folder.defaults, name, rel)) return 'default-exclude';
  if (isBinaryAssetName(name)) return 'binary';
  if (ctx.credentials.file(folder.credentials, name, rel) && !ctx.allowed?.ignores(rel)) return 'credentials';
  return userOrNameExclusion(ctx, rel);
}

function userOrNameExclusion(ctx: SelectionContext, rel: string): SkipReason | undefined {
  if (ctx.user?.ignores(rel)) return 'user-exclude';
  if (zipWouldRename(rel)) return 'unsafe-name';
  if (ctx.partial && rel.includes(',')) return 'comma-in-name';
  return undefined;
}

/**
 * The states of the folders on the way to the last path asked about. Paths come sorted
 * (git's listings) or folder by folder (the walk), so each folder is judged once, and only
 * the current chain is kept, not every folder of the tree.
 */
export class FolderChain {
  private readonly rels: string[] = [''];
  private readonly states: FolderState[];

  constructor(private readonly ctx: SelectionContext) {
    this.states = [{ defaults: ctx.defaults.top, credentials: ctx.credentials.top, inside: true }];
  }

  state(dirRel: string): FolderState {
    const rels = this.rels;
    let depth = rels.length - 1;
    if (rels[depth] === dirRel) return this.states[depth];
    // Back up to the deepest folder that holds this one.
    while (depth > 0 && !(dirRel.startsWith(rels[depth]) && dirRel.charCodeAt(rels[depth].length) === 47 /* / */)) depth--;
    rels.length = depth + 1;
    this.states.length = depth + 1;
    let at = depth === 0 ? 0 : rels[depth].length + 1;
    while (at < dirRel.length) {
      let slash = dirRel.indexOf('/', at);
      if (slash < 0) slash = dirRel.length;
      const rel = dirRel.slice(0, slash);
      const name = dirRel.slice(at, slash);
      const parent = this.states[this.states.length - 1];
      rels.push(rel);
      this.states.push({
        defaults: this.ctx.defaults.folder(parent.defaults, name, rel),
        credentials: this.ctx.credentials.folder(parent.credentials, name, rel),
      });
      at = slash + 1;
    }
    return this.states[this.states.length - 1];
  }

  /** Whether the folder last asked about (`state`) stays inside the workspace; its folders are lstat-ed once, when first asked. */
  inside(depth = this.states.length - 1): boolean {
    const state = this.states[depth];
    state.inside ??= this.inside(depth - 1) && this.staysInside(this.rels[depth]);
    return state.inside;
  }

  /**
   * A folder on the way may be a symlink leading out of the workspace (git lists the paths
   * it once tracked there): it is resolved only when it is a link.
   */
  private staysInside(dirRel: string): boolean {
    const abs = absolutePathOf(this.ctx.root, dirRel);
    const st = lstatQuiet(abs);
    if (st instanceof Error || !st.isSymbolicLink()) return true;
    try {
      const real = realpathSync(abs);
      return real === this.ctx.realRoot || isInside(this.ctx.realRoot, real);
    } catch {
      return false;
    }
  }
}
