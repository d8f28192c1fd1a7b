// A small line chart of a slot's retained WAL over the last hour, drawn as SVG from the overview's series; for a slot
// no consumer reads, its forecast over the next hour: the WAL it will retain at the server's rate, up to its limit.

import { svg } from './dom.js';
import { bytes, seconds } from './format.js';

const WIDTH = 160;
const FORECAST = 40;
const HEIGHT = 32;
const HOUR = 3600;

// A budget with a limit and a rate can be drawn forward; without a limit the slot keeps WAL until the disk is full.
const forecastable = (b) => b && b.secondsLeft !== null && b.secondsLeft !== undefined
  && b.safeWalSizeBytes !== null && b.safeWalSizeBytes !== undefined && b.walBytesPerSecond > 0;

export function sparkline(series, label, budget) {
  const values = series ? series.retainedWalBytes : [];
  const known = values.filter((v) => v !== null);
  const ahead = known.length > 0 && forecastable(budget);
  const width = ahead ? WIDTH + FORECAST : WIDTH;
  const chart = svg('svg', { viewBox: `0 0 ${width} ${HEIGHT}`, width, height: HEIGHT, role: 'img',
    class: 'spark' });
  if (known.length === 0) {
    chart.setAttribute('aria-label', `${label}: no history yet`);
    chart.append(svg('title', {}, 'no history yet'));
    return chart;
  }
  const last = known[known.length - 1];
  const limit = ahead ? last + budget.safeWalSizeBytes : 0;
  const max = Math.max(...known, limit, 1);
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
  let text = `${label}: retained WAL over the last hour, highest ${bytes(Math.max(...known))}, now ${bytes(last)}`;
  if (ahead) {
    // The next hour, to the right of now: the line reaches the limit when the budget runs out.
    const until = Math.min(budget.secondsLeft, HOUR);
    chart.append(svg('line', { x1: 0, y1: y(limit).toFixed(1), x2: width, y2: y(limit).toFixed(1),
      class: 'spark-limit' }));
    chart.append(svg('line', { x1: WIDTH, y1: y(last).toFixed(1), x2: (WIDTH + (until / HOUR) * FORECAST).toFixed(1),
      y2: y(Math.min(limit, last + budget.walBytesPerSecond * until)).toFixed(1), class: 'spark-forecast' }));
    text += `; forecast at ${bytes(budget.walBytesPerSecond)}/s: reaches its limit of ${bytes(limit)}`
      + ` in ${seconds(budget.secondsLeft)}`;
  }
  chart.setAttribute('aria-label', text);
  chart.append(svg('title', {}, text));
  return chart;
}
