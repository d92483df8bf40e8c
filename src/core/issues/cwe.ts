/** The public page of a CWE classification (`CWE-89`, `cwe 89`), or undefined for anything else. */
export function cweUrl(classificationId: string | undefined): string | undefined {
  const m = /^\s*CWE[-_ ]?(\d{1,5})\s*$/i.exec(classificationId ?? '');
  return m ? `https://cwe.mitre.org/data/definitions/${Number(m[1])}.html` : undefined;
}
