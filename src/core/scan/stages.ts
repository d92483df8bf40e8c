import { l10n } from '../text/l10n';
// The stages of scanning one folder, and the share of the progress bar each one fills.
// Upload is most of the wall time for a real workspace; waiting for results follows the
// service's pace and gets the last part.

export const SCAN_STAGES = {
  select: { from: 0, to: 0.05, get label() { return l10n.t('choosing files'); } },
  package: { from: 0.05, to: 0.15, label: 'packaging' },
  upload: { from: 0.15, to: 0.85, label: 'uploading' },
  results: { from: 0.85, to: 1, get label() { return l10n.t('waiting for results'); } },
} as const;

export type ScanStage = keyof typeof SCAN_STAGES;

/** Where `fraction` (0..1) of `stage` lies on the folder's progress (0..1). */
export function overallFraction(stage: ScanStage, fraction = 0): number {
  const { from, to } = SCAN_STAGES[stage];
  const f = Number.isFinite(fraction) ? Math.min(1, Math.max(0, fraction)) : 0;
  return from + (to - from) * f;
}

/** What a progress line says: the stage, and what it is doing now. */
export interface ScanProgress {
  stage: ScanStage;
  /** 0..1 within the stage (left out: where it was, e.g. a retry's message). */
  fraction?: number;
  /** e.g. "packaging 412 files", "uploading 40% · 1.2 of 3.0 MB", "the service is scanning · 2 min". */
  message: string;
}

const ORDER = Object.keys(SCAN_STAGES) as ScanStage[];

/**
 * Progress that never goes back: stages only move forward (a late report of an earlier
 * stage is dropped: its work is over) and within a stage the fraction only grows (an upload
 * rewound to the service's offset keeps its bar). Every report passed on has a fraction.
 */
export function monotonicProgress(sink: (p: ScanProgress & { fraction: number }) => void): (p: ScanProgress) => void {
  let stage = -1;
  let fraction = 0;
  return (p) => {
    const i = ORDER.indexOf(p.stage);
    if (i < stage) return;
    if (i > stage) {
      stage = i;
      fraction = 0;
    }
    if (p.fraction !== undefined && Number.isFinite(p.fraction)) fraction = Math.max(fraction, Math.min(1, Math.max(0, p.fraction)));
    sink({ ...p, fraction });
  };
}
