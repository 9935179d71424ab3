/**
 * The chart's two kinds of panel, each returning its SVG and height so bench/chart.ts can stack
 * them: horizontal bars on one shared, zero-based axis; and cost rows, each a meter bar over a
 * pricing-minimum bar on a scale of its own (a POST's 2 WCU and $127 per million posts share no axis).
 */
import { scaleLinear } from 'd3-scale';
import type { BarKind } from './chart-figures.js';
import { colors, element, escapeXml, group, text } from './chart-svg.js';

export const WIDTH = 960;
export const FONT_SIZE = 12;
const MARGIN = 24;
const LABEL_RIGHT = MARGIN + 300;
const BAR_LEFT = LABEL_RIGHT + 10;
const BAR_SPAN = 440;
const TITLE_SIZE = 15;

export interface Bar {
  readonly label: string;
  readonly value: number;
  readonly unit: string;
  readonly kind: BarKind;
}

export interface Note {
  readonly label: string;
  readonly value: number;
  readonly unit: string;
  readonly target?: string;
  readonly met?: boolean;
}

export interface CostRow {
  readonly label: string;
  readonly unit: string;
  readonly meter: number;
  readonly minimum: number;
  readonly target?: string;
  readonly met?: boolean;
}

export interface Panel {
  readonly svg: string;
  readonly height: number;
}

interface Heading {
  readonly id: string;
  readonly title: string;
  readonly notes: readonly Note[];
  readonly legend: readonly { readonly label: string; readonly color: string }[];
}

const kindLegend: Record<BarKind, string> = { ours: 'tickfeed (p50)', tail: 'tickfeed (p99)', baseline: 'raw DynamoDB, same work' };

export function barPanel(heading: Omit<Heading, 'legend'>, bars: readonly Bar[], top: number): Panel {
  const kinds = [...new Set(bars.map((b) => b.kind))];
  const head = headingSvg({ ...heading, legend: kinds.map((k) => ({ label: kindLegend[k], color: colors[k] })) }, top);
  const x = scaleLinear().domain([0, Math.max(...bars.map((b) => b.value))]).nice().range([0, BAR_SPAN]);
  const axisY = head.bottom + 14;
  const rowsTop = axisY + 8;
  const rowHeight = 22;
  const rowsBottom = rowsTop + rowHeight * bars.length;
  const format = x.tickFormat(5);
  const ticks = x.ticks(5).map((t) =>
    group({ class: 'tick' }, [
      element('line', { x1: BAR_LEFT + x(t), x2: BAR_LEFT + x(t), y1: rowsTop - 4, y2: rowsBottom, stroke: colors.grid }),
      text(BAR_LEFT + x(t), axisY, format(t), { 'text-anchor': 'middle', fill: colors.muted, 'font-size': 10 }),
    ]),
  );
  const rows = bars.map((bar, i) => {
    const y = rowsTop + i * rowHeight;
    const width = x(bar.value);
    const shown = valueText(bar.value, bar.unit);
    return group({ class: 'bar' }, [
      element('title', {}, escapeXml(`${bar.label}: ${shown}`)),
      text(LABEL_RIGHT, y + 11, bar.label, { 'text-anchor': 'end', fill: colors.text, class: 'label' }),
      element('rect', { x: BAR_LEFT, y: y + 1, width, height: 14, fill: colors[bar.kind] }),
      text(BAR_LEFT + width + 6, y + 12, shown, { fill: colors.text, class: 'value' }),
    ]);
  });
  const height = rowsBottom + 16 - top;
  return { svg: group({ id: `panel-${heading.id}` }, [head.svg, ...ticks, ...rows]), height };
}

export function costPanel(heading: Omit<Heading, 'legend'>, rows: readonly CostRow[], top: number): Panel {
  const legend = [
    { label: 'meter (ReturnConsumedCapacity)', color: colors.ours },
    { label: 'pricing-rule minimum, same item sizes', color: colors.baseline },
  ];
  const head = headingSvg({ ...heading, legend }, top);
  const rowsTop = head.bottom + 10;
  const rowHeight = 40;
  const drawn = rows.map((row, i) => {
    const y = rowsTop + i * rowHeight;
    const x = scaleLinear().domain([0, Math.max(row.meter, row.minimum)]).range([0, BAR_SPAN]);
    const ratio = `${Number((row.meter / row.minimum).toFixed(3))}× min`;
    const verdict = row.target ? ` (target ${row.target}: ${row.met ? 'met ✓' : 'not met ✗'})` : '';
    return group({ class: 'cost-row' }, [
      text(LABEL_RIGHT, y + 13, row.label, { 'text-anchor': 'end', fill: colors.text, class: 'label' }),
      text(LABEL_RIGHT, y + 27, `${ratio}${verdict}`, {
        'text-anchor': 'end',
        'font-size': 10,
        fill: row.target ? (row.met ? colors.met : colors.notMet) : colors.muted,
        class: 'ratio',
      }),
      element('rect', { x: BAR_LEFT, y: y + 2, width: x(row.meter), height: 12, fill: colors.ours }),
      text(BAR_LEFT + x(row.meter) + 6, y + 12, `meter ${moneyOrUnits(row.meter, row.unit)}`, { fill: colors.text, class: 'meter' }),
      element('rect', { x: BAR_LEFT, y: y + 17, width: x(row.minimum), height: 12, fill: colors.baseline }),
      text(BAR_LEFT + x(row.minimum) + 6, y + 27, `minimum ${moneyOrUnits(row.minimum, row.unit)}`, { fill: colors.muted, class: 'minimum' }),
    ]);
  });
  const height = rowsTop + rowHeight * rows.length + 4 - top;
  return { svg: group({ id: `panel-${heading.id}` }, [head.svg, ...drawn]), height };
}

function headingSvg(heading: Heading, top: number): { svg: string; bottom: number } {
  const parts = [text(MARGIN, top + TITLE_SIZE + 4, heading.title, { 'font-size': TITLE_SIZE, 'font-weight': 'bold', fill: colors.text, class: 'title' })];
  let legendX = MARGIN;
  const legendY = top + TITLE_SIZE + 22;
  for (const item of heading.legend) {
    parts.push(element('rect', { x: legendX, y: legendY - 9, width: 10, height: 10, fill: item.color }));
    parts.push(text(legendX + 14, legendY, item.label, { fill: colors.muted, 'font-size': 11, class: 'legend' }));
    legendX += 14 + item.label.length * 6.2 + 18; // no text metrics without a renderer: ~6.2 px a character at 11 px
  }
  let y = legendY;
  for (const note of heading.notes) {
    y += 16;
    const verdict = note.target ? ` (target ${note.target}: ${note.met ? 'met ✓' : 'not met ✗'})` : '';
    const fill = note.target ? (note.met ? colors.met : colors.notMet) : colors.muted;
    parts.push(text(MARGIN, y, `${note.label}: ${valueText(note.value, note.unit)}${verdict}`, { fill, class: 'note' }));
  }
  return { svg: parts.join('\n'), bottom: y };
}

/** A figure's value as the JSON has it, with its unit: "4552 copies/s", "0.97×". */
export function valueText(value: number, unit: string): string {
  if (unit === '×') return `${value}×`;
  return unit ? `${value} ${unit}` : String(value);
}

function moneyOrUnits(value: number, unit: string): string {
  return unit === '$' ? `$${value}` : `${value} ${unit}`;
}

