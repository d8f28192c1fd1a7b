// A small line chart of a slot's retained WAL over the last hour, drawn as SVG from the overview's series.

import { svg } from './dom.js';
import { bytes } from './format.js';

const WIDTH = 160;
const HEIGHT = 32;
const HOUR = 3600;

export function sparkline(series, label) {
  const chart = svg('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, width: WIDTH, height: HEIGHT, role: 'img',
    class: 'spark' });
  const values = series ? series.retainedWalBytes : [];
  const known = values.filter((v) => v !== null);
  if (known.length === 0) {
    chart.setAttribute('aria-label', `${label}: no history yet`);
    chart.append(svg('title', {}, 'no history yet'));
    return chart;
  }
  const max = Math.max(...known, 1);
  const end = Date.parse(series.from) / 1000 + series.stepSeconds * values.length;
  const start = end - HOUR;
  const x = (i) => ((Date.parse(series.from) / 1000 + series.stepSeconds * (i + 0.5) - start) / HOUR) * WIDTH;
  const y = (v) => HEIGHT - 2 - (v / max) * (HEIGHT - 4);
  // A gap (no poll in a step) breaks the line rather than drawing a slope that never happened.
  let run = [];
  const runs = [];
  values.forEach((v, i) => {
    if (v === null) {
      if (run.length) runs.push(run);
      run = [];
    } else {
      run.push(`${x(i).toFixed(1)},${y(v).toFixed(1)}`);
    }
  });
  if (run.length) runs.push(run);
  runs.forEach((points) => chart.append(points.length === 1
    ? svg('circle', { cx: points[0].split(',')[0], cy: points[0].split(',')[1], r: 1.5, class: 'spark-line' })
    : svg('polyline', { points: points.join(' '), class: 'spark-line', fill: 'none' })));
  const last = known[known.length - 1];
  const text = `${label}: retained WAL over the last hour, highest ${bytes(max)}, now ${bytes(last)}`;
  chart.setAttribute('aria-label', text);
  chart.append(svg('title', {}, text));
  return chart;
}
