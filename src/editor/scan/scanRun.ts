// One running scan as the editor tracks it: its progress for the notification and the
// status bar, its cancellation, and how its folders ended when some did not finish.
import type * as vscode from 'vscode';
import { CancelledAfterUploadError } from '../../core/async';
import { ScanFailedError, ScanStoppedError } from '../../core/scan/awaitScan';
import type { FolderOutcome } from '../../core/scan/endWords';
import { overallFraction, type ScanProgress, type ScanStage } from '../../core/scan/stages';
import { l10n, plural } from '../../core/text/l10n';

/** What the status bar shows of a running scan; `stage` results: the service has it (no percentage then). */
export interface ScanState { message: string; percent?: number; stage?: ScanStage }

/** Tracks one running scan: its progress for the notification and the status bar, and cancellation. */
export class Run {
  readonly abort = new AbortController();
  /** The folder a failure came from (its name), for what is said when the run ends. */
  folder: string | undefined;
  private reported = 0;
  /** Each folder's progress (0..1): folders scanned side by side fill one bar together. */
  private readonly fractions: number[] = [];
  constructor(
    private readonly progress: vscode.Progress<{ message?: string; increment?: number }>,
    private readonly onState: (s: ScanState) => void,
  ) {}

  /** `overall` is 0-100 across every folder of the run. */
  report(message: string, overall?: number, stage?: ScanStage): void {
    let increment: number | undefined;
    if (overall !== undefined && overall > this.reported) {
      increment = overall - this.reported;
      this.reported = overall;
    }
    this.progress.report({ message, increment });
    this.onState({ message, percent: overall === undefined ? undefined : Math.floor(this.reported), stage });
  }

  /** A pipeline progress of folder `index` of `count` (the label names the folder in multi-root workspaces). */
  folderProgress(index: number, count: number, label: string): (p: ScanProgress) => void {
    return (p) => {
      this.fractions[index] = overallFraction(p.stage, p.fraction);
      let sum = 0;
      for (let i = 0; i < count; i++) sum += this.fractions[i] ?? 0;
      this.report(`${label}${p.message}`, (sum / count) * 100, p.stage);
    };
  }
}

/** How one folder of a run ended when it did not finish (`folder` its name, when known). */
export interface FolderFailure { folder: string | undefined; error: unknown }

/** A run some of whose folders did not finish; `done` holds those that did. */
export class FoldersEnded extends Error {
  constructor(readonly done: FolderOutcome[], readonly failures: FolderFailure[]) {
    super(plural(failures.length, l10n.t('{0} folder did not finish'), l10n.t('{0} folders did not finish')));
  }
}

/** Errors the pipeline has already recorded on the folder (the service had the scan). */
export function recordedByPipeline(err: unknown): boolean {
  return err instanceof CancelledAfterUploadError || err instanceof ScanFailedError || err instanceof ScanStoppedError;
}
