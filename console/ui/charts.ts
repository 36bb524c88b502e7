/**
 * The two charts (Chart.js, bundled: no CDN). Only the parts used are registered, which keeps the
 * bundle small. Each canvas has a text alternative: the numbers are also on the page as text.
 */
import { BarController, BarElement, CategoryScale, Chart, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';
import type { FunnelBar } from '../model/funnel';
import type { MinuteCount } from '../model/per-minute';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, LineController, LineElement, PointElement, Tooltip);

/** Colours with at least 3:1 against white (WCAG 1.4.11 for graphics), by bar; failed in a distinct hue. */
const FUNNEL_COLOURS: Record<string, string> = {
  Audience: '#4a535e',
  Sendable: '#12365f',
  Sent: '#1f5fa8',
  Delivered: '#1a7f4b',
  Read: '#6b3fa0',
  Replied: '#0b6e75',
  Clicked: '#a3195b',
  'Held out': '#5c5c5c',
  Skipped: '#7a5c00',
  'Opted out': '#8a4b08',
  Failed: '#b3261e',
};
const colourOf = (label: string): string => FUNNEL_COLOURS[label] ?? '#4a535e';

const charts = new WeakMap<HTMLCanvasElement, Chart>();

/** Draws or updates the funnel bar chart on `canvas`. */
export function drawFunnel(canvas: HTMLCanvasElement, bars: readonly FunnelBar[]): void {
  const labels = bars.map((bar) => bar.label);
  const values = bars.map((bar) => bar.value);
  const existing = charts.get(canvas);
  if (existing) {
    existing.data.labels = labels;
    existing.data.datasets[0]!.data = values;
    existing.update('none');
    return;
  }
  charts.set(
    canvas,
    new Chart(canvas, {
      type: 'bar',
      data: { labels, datasets: [{ label: 'Recipients', data: values, backgroundColor: labels.map(colourOf) }] },
      options: { animation: false, responsive: true, maintainAspectRatio: false, scales: { y: { beginAtZero: true, ticks: { precision: 0 } } } },
    }),
  );
}

/** Draws or updates the messages-per-minute line on `canvas` (minute labels in the reader's zone). */
export function drawPerMinute(canvas: HTMLCanvasElement, points: readonly MinuteCount[]): void {
  const labels = points.map((point) => new Date(point.minute).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' }));
  const values = points.map((point) => point.count);
  const existing = charts.get(canvas);
  if (existing) {
    existing.data.labels = labels;
    existing.data.datasets[0]!.data = values;
    existing.update('none');
    return;
  }
  charts.set(
    canvas,
    new Chart(canvas, {
      type: 'line',
      data: { labels, datasets: [{ label: 'Messages per minute', data: values, borderColor: '#1f5fa8', backgroundColor: '#1f5fa8', tension: 0.2 }] },
      options: { animation: false, responsive: true, maintainAspectRatio: false, scales: { y: { beginAtZero: true, ticks: { precision: 0 } } } },
    }),
  );
}
