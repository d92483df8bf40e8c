export { SARIF_SCHEMA_URI, relativeUri, sarifFix, sarifText, toSarif, type ExportedFinding, type ExportedFolder, type ExportOptions } from './sarif';
export { UnsafeTargetError, writeExportFile } from './writeFile';
