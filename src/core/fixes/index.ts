export * from './applyFix';
export * from './lineEdits';
export * from './target';
export * from './compose';
export * from './undoFix';
