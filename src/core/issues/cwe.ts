/** The public page of a CWE classification (`CWE-89`, `cwe 89`), or undefined for anything else. */
export function cweUrl(classificationId: string | undefined): string | undefined {
  const m = /^\s*CWE[-_ ]?(\d{1,5})\s*$/i.exec(classificationId ?? '');
  return m ? `https://cwe.mitre.org/data/definitions/${Number(m[1])}.html` : undefined;
}

/** The public record of a CVE (`CVE-2021-23337`), or undefined for anything else. */
export function cveUrl(id: string | undefined): string | undefined {
  const m = /^\s*(CVE-\d{4}-\d{4,7})\s*$/i.exec(id ?? '');
  return m ? `https://nvd.nist.gov/vuln/detail/${m[1]!.toUpperCase()}` : undefined;
}

/** Where a classification is described: its CWE page or its CVE record. */
export function classificationUrl(id: string | undefined): string | undefined {
  return cweUrl(id) ?? cveUrl(id);
}
