export * from './applyFix';
export * from './lineEdits';
