export { SARIF_SCHEMA_URI, sarifFix, sarifText, toSarif, type ExportedFinding, type ExportedFolder, type ExportOptions } from './sarif';
