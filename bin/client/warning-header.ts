/**
 * The texts of a Warning header as the Kubernetes API server writes it (RFC 7234 warn-code 299):
 * `299 - "text"`, several joined by commas. A text may hold commas and escaped quotes of its own.
 */
export function warningTexts(header: string | null): string[] {
  if (!header) return [];
  return [...header.matchAll(/\d{3} \S+ ("(?:[^"\\]|\\.)*")/g)].map((match) => JSON.parse(match[1]!) as string);
}
