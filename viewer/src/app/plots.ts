/**
 * Live plots (uPlot): one small chart per chosen column, over a rolling window of the last
 * WINDOW_S simulated seconds. Samples arrive with each frame (the worker's tick rate); charts are
 * redrawn at most REDRAW_HZ times a second, since uPlot redraws a whole chart each time.
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** the rolling window, simulated seconds */
const WINDOW_S = 10;
const REDRAW_HZ = 10;
const HEIGHT = 150;

interface Chart {
  name: string;
  plot: uPlot;
  t: number[];
  v: number[];
}

export class LivePlots {
  private readonly charts: Chart[] = [];
  private lastDraw = 0;

  constructor(private readonly area: HTMLElement) {}

  /** the plotted columns, in the order the worker sends their values */
  get names(): string[] { return this.charts.map((c) => c.name); }

  add(name: string): boolean {
    if (this.charts.some((c) => c.name === name)) return false;
    const box = document.createElement('div');
    this.area.appendChild(box);
    const opts: uPlot.Options = {
      title: name, width: Math.max(200, this.area.clientWidth - 8), height: HEIGHT,
      scales: { x: { time: false } },
      axes: [{ label: 't (s)' }, {}],
      series: [{ label: 't' }, { label: name, stroke: '#3060ff', width: 1.5 }],
      legend: { show: false },
    };
    this.charts.push({ name, plot: new uPlot(opts, [[], []], box), t: [], v: [] });
    return true;
  }

  clear(): void {
    for (const c of this.charts) { c.plot.destroy(); }
    this.charts.length = 0;
    this.area.replaceChildren();
  }

  /** a sample at time t of every chart (values in the order of `names`); a time going back clears */
  push(t: number, values: readonly number[]): void {
    for (const [i, c] of this.charts.entries()) {
      if (c.t.length > 0 && t < c.t[c.t.length - 1]!) { c.t.length = 0; c.v.length = 0; }
      if (c.t.length > 0 && t === c.t[c.t.length - 1]) continue;
      c.t.push(t);
      c.v.push(values[i] ?? NaN);
      // drop what fell out of the window
      let k = 0;
      while (k < c.t.length && c.t[k]! < t - WINDOW_S) k++;
      if (k > 0) { c.t.splice(0, k); c.v.splice(0, k); }
    }
  }

  /** redraws the charts if REDRAW_HZ allows (or `now` is true) */
  draw(force = false): void {
    const now = performance.now();
    if (!force && now - this.lastDraw < 1000 / REDRAW_HZ) return;
    this.lastDraw = now;
    for (const c of this.charts) c.plot.setData([c.t, c.v]);
  }
}
