import { fastMatcher, type PathMatcher } from './fastMatcher';

/**
 * Folders that hold dependencies, build output, virtualenvs or editor state. Scanning them
 * wastes upload time and buries real findings under third-party noise, so — like the
 * service's own command-line client — they are left out unless the user asks otherwise.
 * Written as gitignore patterns: a bare name matches at any depth.
 */
export const DEFAULT_EXCLUDED_DIRS: readonly string[] = [
  '.git/', '.hg/', '.svn/',
  'node_modules/', 'bower_components/', 'jspm_packages/',
  'site-packages/', 'dist-packages/', '__pycache__/', '.venv/', 'venv/', 'env/', '.tox/', '.nox/',
  '.mypy_cache/', '.pytest_cache/', '.ruff_cache/', '*.egg-info/',
  'dist/', 'build/', 'out/', 'target/', '.next/', '.nuxt/', '.svelte-kit/', '.gradle/',
  '.terraform/', 'coverage/', '.nyc_output/',
  '.vscode/', '.vscode-test/', '.idea/', '.vs/',
];

/**
 * Generated or minified companions of real sources (source maps and lock-step bundles), and
 * this extension's own exports: findings saved into the workspace would go back to the
 * service with the next scan.
 */
export const DEFAULT_EXCLUDED_FILES: readonly string[] = ['*.map', '*.min.js', '*.min.css', '.DS_Store', 'Thumbs.db', 'code-scanner-findings*.sarif'];

/**
 * Binary assets (images, audio/video, archives, fonts, compiled objects). The scanner reads
 * source code; these only make the archive bigger. Matched by extension, case-insensitively.
 */
export const BINARY_ASSET_EXTENSIONS: ReadonlySet<string> = new Set([
  // images
  'png', 'jpg', 'jpeg', 'gif', 'bmp', 'ico', 'icns', 'webp', 'tif', 'tiff', 'psd', 'heic', 'avif',
  // audio / video
  'mp3', 'wav', 'flac', 'ogg', 'aac', 'm4a', 'mp4', 'm4v', 'mov', 'avi', 'mkv', 'webm', 'wmv', 'flv',
  // archives and packages
  'zip', 'tar', 'gz', 'tgz', 'bz2', 'xz', 'zst', '7z', 'rar', 'jar', 'war', 'ear', 'whl', 'nupkg',
  'deb', 'rpm', 'dmg', 'iso', 'apk', 'ipa', 'vsix',
  // fonts
  'woff', 'woff2', 'ttf', 'otf', 'eot',
  // compiled objects and executables
  'exe', 'dll', 'so', 'dylib', 'o', 'a', 'lib', 'obj', 'class', 'pyc', 'pyo', 'pdb', 'bin', 'wasm',
  // documents that are binary containers
  'pdf', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx',
]);

export function isBinaryAssetName(relPath: string): boolean {
  const base = relPath.slice(relPath.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return false;
  return BINARY_ASSET_EXTENSIONS.has(base.slice(dot + 1).toLowerCase());
}

/**
 * A new matcher for the default folder and file excludes. New on every call on purpose: it
 * remembers its answer for every name it has seen, so a matcher kept for the life of the
 * extension host would hold the names of every workspace ever scanned.
 */
export function defaultExcludeMatcher(): PathMatcher {
  return fastMatcher([...DEFAULT_EXCLUDED_DIRS, ...DEFAULT_EXCLUDED_FILES], { ignorecase: true });
}
