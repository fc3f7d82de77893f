// Revenue of the last 30 days as bars, drawn as inline SVG, with the same figures as a table.
import { useId } from "react";
import { formatRupees } from "../../../lib/money.js";
import { formatDay } from "../format.js";

const WIDTH = 640;
const HEIGHT = 220;
const PAD = { top: 12, right: 8, bottom: 28, left: 64 };

/** ₹1.2L, ₹45K, ₹900: axis labels short enough for a phone. */
function compactRupees(amount) {
  if (amount >= 1e7) return `₹${+(amount / 1e7).toFixed(1)}Cr`;
  if (amount >= 1e5) return `₹${+(amount / 1e5).toFixed(1)}L`;
  if (amount >= 1e3) return `₹${+(amount / 1e3).toFixed(1)}K`;
  return `₹${Math.round(amount)}`;
}

/** A round ceiling for the axis: 1, 2 or 5 times a power of ten. */
function niceMax(value) {
  if (value <= 0) return 1000;
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((step) => step * power).find((candidate) => candidate >= value);
}

export function RevenueChart({ days }) {
  const titleId = useId();
  const descId = useId();
  const total = days.reduce((sum, day) => sum + Number(day.revenue || 0), 0);
  const orders = days.reduce((sum, day) => sum + Number(day.orders || 0), 0);
  const best = days.reduce((top, day) => (Number(day.revenue) > Number(top?.revenue ?? -1) ? day : top), null);
  const top = niceMax(Math.max(...days.map((day) => Number(day.revenue) || 0), 0));
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotWidth / Math.max(days.length, 1);
  const barWidth = Math.max(slot * 0.7, 2);
  const y = (amount) => PAD.top + plotHeight - (amount / top) * plotHeight;
  const first = days[0]?.date;
  const last = days[days.length - 1]?.date;

  const summary = total > 0
    ? `${formatRupees(total)} from ${orders} order${orders === 1 ? "" : "s"} between ${formatDay(first)} and ${formatDay(last)}; best day ${formatDay(best.date)} with ${formatRupees(best.revenue)}.`
    : `No revenue between ${formatDay(first)} and ${formatDay(last)}.`;

  return (
    <figure className="adm-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={`${titleId} ${descId}`} className="adm-chart__svg">
        <title id={titleId}>Revenue by day, last 30 days</title>
        <desc id={descId}>{summary}</desc>
        {[0, 0.5, 1].map((share) => (
          <g key={share}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(top * share)} y2={y(top * share)} className="adm-chart__grid" />
            <text x={PAD.left - 8} y={y(top * share)} dy="0.35em" textAnchor="end" className="adm-chart__label">
              {compactRupees(top * share)}
            </text>
          </g>
        ))}
        {days.map((day, index) => {
          const amount = Number(day.revenue) || 0;
          const height = Math.max(y(0) - y(amount), amount > 0 ? 1.5 : 0);
          return (
            <rect key={day.date} x={PAD.left + index * slot + (slot - barWidth) / 2} y={y(0) - height}
              width={barWidth} height={height} rx="1.5" className="adm-chart__bar">
              <title>{`${formatDay(day.date)}: ${formatRupees(amount)} (${day.orders} order${day.orders === 1 ? "" : "s"})`}</title>
            </rect>
          );
        })}
        {days.map((day, index) => (index % 7 === 0 || (index === days.length - 1 && index % 7 > 3)) && (
          <text key={day.date} x={PAD.left + index * slot + slot / 2} y={HEIGHT - 8} textAnchor="middle"
            className="adm-chart__label">
            {formatDay(day.date)}
          </text>
        ))}
      </svg>
      <figcaption className="adm-chart__caption">{summary}</figcaption>
      <details className="adm-chart__table">
        <summary>Show the figures as a table</summary>
        <div className="adm-table-wrap">
          <table className="adm-table adm-table--compact">
            <caption className="sr-only">Revenue and orders by day</caption>
            <thead><tr><th scope="col">Day</th><th scope="col">Orders</th><th scope="col">Revenue</th></tr></thead>
            <tbody>
              {days.map((day) => (
                <tr key={day.date}>
                  <th scope="row">{formatDay(day.date)}</th>
                  <td>{day.orders}</td>
                  <td>{formatRupees(day.revenue)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
