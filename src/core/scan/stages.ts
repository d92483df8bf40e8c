// The stages of scanning one folder, and the share of the progress bar each one fills.
// Upload is most of the wall time for a real workspace; waiting for results follows the
// service's pace and gets the last part.

export const SCAN_STAGES = {
  select: { from: 0, to: 0.05, label: 'choosing files' },
  package: { from: 0.05, to: 0.15, label: 'packaging' },
  upload: { from: 0.15, to: 0.85, label: 'uploading' },
  results: { from: 0.85, to: 1, label: 'waiting for results' },
} as const;

export type ScanStage = keyof typeof SCAN_STAGES;

/** Where `fraction` (0..1) of `stage` lies on the folder's progress (0..1). */
export function overallFraction(stage: ScanStage, fraction: number): number {
  const { from, to } = SCAN_STAGES[stage];
  const f = Number.isFinite(fraction) ? Math.min(1, Math.max(0, fraction)) : 0;
  return from + (to - from) * f;
}

/** What a progress line says: the stage, and what it is doing now. */
export interface ScanProgress {
  stage: ScanStage;
  /** 0..1 within the stage. */
  fraction: number;
  /** e.g. "packaging 412 files", "uploading 40%", "3 issues so far". */
  message: string;
}
