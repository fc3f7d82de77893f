// /admin: the shop at a glance: totals, orders by status, 30 days of revenue, low stock, newest orders.
import { Link } from "../../../lib/router.jsx";
import { useRequest } from "../../../lib/use-request.js";
import { formatRupees } from "../../../lib/money.js";
import { plural } from "../../../lib/plural.js";
import { getDashboardStats, getRecentOrders } from "../../../features/admin/api.js";
import { adminPaths } from "../../../features/admin/paths.js";
import { formatCount, ORDER_STATUSES, statusLabel } from "../../../features/admin/format.js";
import { OrderTable } from "../../../features/admin/components/order-table.jsx";
import { RevenueChart } from "../../../features/admin/components/revenue-chart.jsx";
import { AdminLoading, AdminLoadError } from "../../../features/admin/components/request-state.jsx";

async function loadDashboard({ signal }) {
  const [stats, recentOrders] = await Promise.all([getDashboardStats({ signal }), getRecentOrders({ signal })]);
  return { stats, recentOrders };
}

export function Dashboard() {
  const { status, data, error, retry } = useRequest(loadDashboard);
  return (
    <>
      <title>Dashboard — Bookstore Admin</title>
      <header className="adm-page-head">
        <h1>Dashboard</h1>
        <p className="adm-page-head__lead">Welcome back. Here is how the shop is doing.</p>
      </header>
      {status === "loading" && !data && <AdminLoading label="Loading dashboard…" />}
      {status === "error" && <AdminLoadError title="Failed to load dashboard data" error={error} retry={retry} />}
      {data && <DashboardBody stats={data.stats} recentOrders={data.recentOrders} />}
    </>
  );
}

function DashboardBody({ stats, recentOrders }) {
  const cards = [
    { label: "Total Books", value: formatCount(stats.totalBooks), note: `${formatCount(stats.inStockBooks)} in stock` },
    { label: "Total Orders", value: formatCount(stats.totalOrders), note: `${formatCount(stats.ordersByStatus?.pending)} pending` },
    { label: "Total Users", value: formatCount(stats.totalUsers), note: "shopper accounts" },
    { label: "Total Revenue", value: formatRupees(stats.totalRevenue), note: "paid and delivered orders" },
    { label: "Discounts Given", value: formatRupees(stats.discountsGiven), note: "coupons on orders not cancelled",
      link: { to: adminPaths.coupons(), text: "Coupons" } },
  ];
  const byStatus = stats.ordersByStatus ?? {};
  const statusTotal = Math.max(ORDER_STATUSES.reduce((sum, key) => sum + (byStatus[key] ?? 0), 0), 1);
  return (
    <div className="adm-dashboard">
      {stats.refundsNeedingAttention > 0 && (
        <p className="adm-alert adm-alert--error" role="alert">
          {stats.refundsNeedingAttention === 1 ? "1 refund" : `${formatCount(stats.refundsNeedingAttention)} refunds`}{" "}
          {stats.refundsNeedingAttention === 1 ? "needs" : "need"} a person: Razorpay refused or keeps failing. Check the
          payment in Razorpay&apos;s dashboard, then retry.{" "}
          <Link to={adminPaths.refunds()}>Refunds needing attention</Link>
        </p>
      )}
      <section aria-label="Totals">
        <ul className="adm-stats">
          {cards.map((card) => (
            <li key={card.label} className="adm-stat">
              <p className="adm-stat__label">{card.label}</p>
              <p className="adm-stat__value" data-stat={card.label}>{card.value}</p>
              <p className="adm-stat__note">
                {card.note}
                {card.link && <> · <Link to={card.link.to}>{card.link.text}</Link></>}
              </p>
            </li>
          ))}
        </ul>
      </section>

      <div className="adm-dashboard__grid">
        <section className="adm-panel adm-panel--chart" aria-labelledby="revenue-title">
          <h2 id="revenue-title">Revenue, last 30 days</h2>
          {stats.revenueByDay?.length ? <RevenueChart days={stats.revenueByDay} /> : <p>No figures yet.</p>}
        </section>

        <section className="adm-panel" aria-labelledby="by-status-title">
          <h2 id="by-status-title">Orders by status</h2>
          <ul className="adm-status-bars">
            {ORDER_STATUSES.map((key) => (
              <li key={key}>
                <Link to={adminPaths.orders({ status: key })} className="adm-status-bars__link">
                  <span className="adm-status-bars__name">{statusLabel(key)}</span>
                  <span className="adm-status-bars__count">{formatCount(byStatus[key] ?? 0)}</span>
                  <span className="adm-status-bars__track" aria-hidden="true">
                    <span className={`adm-status-bars__fill adm-status-bars__fill--${key}`}
                      style={{ width: `${((byStatus[key] ?? 0) / statusTotal) * 100}%` }} />
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      </div>

      <div className="adm-dashboard__grid">
        <section className="adm-panel" aria-labelledby="recent-title">
          <div className="adm-panel__head">
            <h2 id="recent-title">Recent Orders</h2>
            <Link to={adminPaths.orders()} className="adm-link-button">View All Orders</Link>
          </div>
          <OrderTable orders={recentOrders}
            empty={{ title: "No Recent Orders", text: "Orders appear here as soon as shoppers place them." }} />
        </section>
        <section className="adm-panel" aria-labelledby="low-stock-title">
          <h2 id="low-stock-title">Low stock</h2>
          <p className="adm-muted">Books with {plural(stats.lowStockThreshold ?? 5, "copy", "copies")} or fewer, lowest first.</p>
          {stats.lowStock?.length ? (
            <ul className="adm-low-stock">
              {stats.lowStock.map((book) => (
                <li key={book._id}>
                  <span className="adm-low-stock__title">
                    <Link to={adminPaths.editBook(book._id)}>{book.title}</Link>
                    <span className="adm-muted adm-small">{book.author}</span>
                  </span>
                  <span className={`adm-stock${book.stock === 0 ? " adm-stock--out" : " adm-stock--low"}`}>
                    {book.stock === 0 ? "Out of stock" : `${book.stock} left`}
                  </span>
                </li>
              ))}
            </ul>
          ) : <p>Every book has more than {plural(stats.lowStockThreshold ?? 5, "copy", "copies")}.</p>}
        </section>
      </div>
    </div>
  );
}
