/** A generated section of a doc page: the text between its two marker comments, replaced whole. */
export function withGeneratedSection(text: string, markers: { start: string; end: string; page: string }, body: string): string {
  const start = text.indexOf(markers.start);
  const end = text.indexOf(markers.end);
  if (start < 0 || end < start) throw new Error(`${markers.page} has no ${markers.start} … ${markers.end} section`);
  return `${text.slice(0, start + markers.start.length)}\n${body}\n${text.slice(end)}`;
}
