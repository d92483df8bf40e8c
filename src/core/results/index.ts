// A workspace's findings and their lifecycle, without the editor.
export * from './types';
export { FindingsModel, type Located, type RefreshedScan, type FindingsModelOptions } from './model';
export { digest, fingerprint, place, type ReadText } from './placement';
export { fixBlocks, holdsFix, rangeOfLineText, returnOf, type LeftFinding, type LeftHow } from './leftFindings';
export { existsNow, missingNow } from './deletions';
export { ResultsStorage, readRecords, readRecordsInSlices, STATE_KEY, type KeyValueState, type Snapshot } from './storage';
export { clockTime, elapsedText } from '../text/time';
export { folderNotes, serviceListsText, resultsText, scansPhrase, attemptText, pendingText, warningsText, waitingUploadsText, SIGNED_OUT_NOTE } from './describe';
export { MAX_PENDING_PER_FOLDER, MAX_SCANS_PER_FOLDER } from './transitions';
