export { readJsonLines, writeJsonLines, writeJsonLinesSync } from './jsonLines';
