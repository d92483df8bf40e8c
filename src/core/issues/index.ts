export * from './model';
export * from './severity';
export * from './grouping';
export * from './rangeTracker';
export * from './poller';
export * from './cwe';
export * from './viewFilter';
export * from './words';
