/**
 * The few SVG primitives the bench chart needs, as strings. Presentation attributes only (no
 * <style>, no fonts to load, no scripts), so GitHub's image renderer shows it as drawn here.
 */

export const colors = {
  ours: '#2563eb',
  tail: '#93c5fd',
  baseline: '#9ca3af',
  text: '#111827',
  muted: '#4b5563',
  grid: '#e5e7eb',
  met: '#15803d',
  notMet: '#b91c1c',
} as const;

type Attrs = Record<string, string | number | undefined>;

/** Text and attribute values go through here: XML's five specials, and no control characters XML forbids. */
export function escapeXml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Coordinates to one decimal: a readable, deterministic file. */
export function px(n: number): number {
  return Math.round(n * 10) / 10;
}

export function element(name: string, attrs: Attrs, children?: string): string {
  const list = Object.entries(attrs)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([key, value]) => ` ${key}="${escapeXml(typeof value === 'number' ? String(px(value)) : value)}"`)
    .join('');
  return children === undefined ? `<${name}${list}/>` : `<${name}${list}>${children}</${name}>`;
}

export function text(x: number, y: number, content: string, attrs: Attrs = {}): string {
  return element('text', { x, y, ...attrs }, escapeXml(content));
}

export function group(attrs: Attrs, children: readonly string[]): string {
  return element('g', attrs, `\n${children.join('\n')}\n`);
}
