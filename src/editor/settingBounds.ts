// The range package.json declares for each numeric setting (a unit test keeps the two the
// same). VS Code does not enforce it on what a repository's `.vscode/settings.json` says, so
// every value is clamped when it is read (settings.ts): a 1-byte chunk or an unlimited file
// size from a repository is not taken.
export const NUMERIC_SETTINGS = {
  maxFileSizeMB: { min: 0.01, max: 1024, default: 10 },
  uploadChunkSizeMB: { min: 0.0625, max: 512, default: 8 },
  scanOnSaveMinInterval: { min: 5, max: 3600, default: 60 },
} as const;

/** A numeric setting's value within its declared range; its default when not a number. */
export function clampSetting(name: keyof typeof NUMERIC_SETTINGS, value: unknown): number {
  const b = NUMERIC_SETTINGS[name];
  if (typeof value !== 'number' || !Number.isFinite(value)) return b.default;
  return Math.min(b.max, Math.max(b.min, value));
}
