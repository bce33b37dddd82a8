import { html, svg, nothing } from 'lit';
import type { AnalyticsReport, DayCounters } from './api.js';

/** The series the chart draws: colour and dash pattern both tell them apart (never colour alone). */
const CHART_SERIES: Array<{ key: keyof DayCounters; label: string; color: string; dash: string }> = [
  { key: 'views', label: 'Views', color: '#2f5fa7', dash: '' },
  { key: 'sessions', label: 'Sessions', color: '#a0522d', dash: '7 4' },
  { key: 'submissions', label: 'Submissions', color: '#1b7a3a', dash: '2 3' },
];

const WIDTH = 720;
const HEIGHT = 240;
const PAD = { left: 48, right: 14, top: 12, bottom: 30 };

/** The smallest 1, 2 or 5 × 10^k at or above `value`, so the axis reads in round numbers. */
function roundUp(value: number): number {
  if (value <= 1) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((step) => step * magnitude).find((candidate) => candidate >= value)!;
}

const count = new Intl.NumberFormat();

/**
 * Views, sessions and submissions per day as inline SVG: an image with a title and a description, as the panel's
 * table carries the same figures for screen readers.
 */
export function dailyChart(report: AnalyticsReport, titleId: string) {
  const days = report.days;
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const top = roundUp(Math.max(0, ...days.flatMap((day) => CHART_SERIES.map((s) => day[s.key]))));
  const x = (i: number) => PAD.left + (days.length === 1 ? plotWidth / 2 : (i * plotWidth) / (days.length - 1));
  const y = (value: number) => PAD.top + plotHeight - (value / top) * plotHeight;
  const ticks = [0, top / 2, top].filter((tick) => Number.isInteger(tick));
  const dateTicks = [...new Set([0, Math.floor((days.length - 1) / 2), days.length - 1])].filter((i) => i >= 0);
  // The end dates hang inwards so they stay inside the drawing.
  const anchor = (i: number) =>
    days.length === 1 ? 'middle' : i === 0 ? 'start' : i === days.length - 1 ? 'end' : 'middle';
  const description =
    `From ${report.from} to ${report.to}: ` +
    CHART_SERIES.map((s) => `${count.format(report.totals[s.key])} ${s.label.toLowerCase()}`).join(', ') +
    `; the busiest day had ${count.format(Math.max(0, ...days.map((d) => d.views)))} views.`;

  return html`<svg
    viewBox="0 0 ${WIDTH} ${HEIGHT}"
    width="100%"
    role="img"
    aria-labelledby="${titleId} ${titleId}-desc"
    style="max-width:${WIDTH}px;display:block"
  >
    <title id=${titleId}>Views, sessions and submissions per day</title>
    <desc id="${titleId}-desc">${description}</desc>
    ${ticks.map(
      (tick) => svg`<line x1=${PAD.left} x2=${WIDTH - PAD.right} y1=${y(tick)} y2=${y(tick)} stroke="#ddd" />
        <text x=${PAD.left - 6} y=${y(tick) + 4} text-anchor="end" font-size="12" fill="#444"
          >${count.format(tick)}</text>`,
    )}
    ${dateTicks.map(
      (i) => svg`<text x=${x(i)} y=${HEIGHT - 8} font-size="12" fill="#444"
        text-anchor=${anchor(i)}
        >${days[i].date}</text>`,
    )}
    ${CHART_SERIES.map(
      (s) => svg`<polyline
        fill="none"
        stroke=${s.color}
        stroke-width="2"
        stroke-dasharray=${s.dash || nothing}
        points=${days.map((day, i) => `${x(i).toFixed(1)},${y(day[s.key]).toFixed(1)}`).join(' ')}
      />`,
    )}
  </svg>`;
}

/** The chart's key: a sample of each line beside its name. */
export function chartLegend() {
  return html`<ul class="legend" aria-label="Chart key">
    ${CHART_SERIES.map(
      (s) => html`<li>
        <svg width="28" height="10" aria-hidden="true"
          ><line x1="0" x2="28" y1="5" y2="5" stroke=${s.color} stroke-width="2" stroke-dasharray=${s.dash || nothing}
        /></svg>
        ${s.label}
      </li>`,
    )}
  </ul>`;
}
