// /admin/coupons: every coupon with its rules, dates, on/off and how often it was used; search by code.
import { Link } from "../../../lib/router.jsx";
import { useRequest } from "../../../lib/use-request.js";
import { getCategories, listCoupons, ADMIN_PAGE_SIZE } from "../../../features/admin/api.js";
import { adminPaths } from "../../../features/admin/paths.js";
import { formatCount } from "../../../features/admin/format.js";
import { couponState, discountText, rulesText, usesText, validityText } from "../../../features/admin/coupon-rules.js";
import { pageOf, useListParams } from "../../../features/admin/use-list-params.js";
import { useHandedNotice } from "../../../features/admin/use-handed-notice.js";
import { Alert } from "../../../features/admin/components/alert.jsx";
import { AdminTable, FilterSelect, ListFilters, ListRequest } from "../../../features/admin/components/admin-list.jsx";

const STATES = ["active", "scheduled", "expired", "used up", "off"];
const STATE_BADGES = { active: "delivered", scheduled: "processing", expired: "cancelled", "used up": "pending", off: "cancelled" };
const stateLabel = (state) => state.charAt(0).toUpperCase() + state.slice(1);

async function loadCoupons({ signal }) {
  const [coupons, categories] = await Promise.all([listCoupons({ signal }), getCategories({ signal }).catch(() => [])]);
  return { coupons, categoryNames: Object.fromEntries(categories.map((category) => [category.slug, category.name])) };
}

export function Coupons() {
  const list = useListParams({ state: STATES });
  const [notice, setNotice] = useHandedNotice();
  const coupons = useRequest(loadCoupons);

  const { search, filters: { state } } = list;
  const all = coupons.data?.coupons ?? [];
  const wanted = search.toUpperCase();
  const matching = all.filter((coupon) => (!wanted || coupon.code.includes(wanted)) && (!state || couponState(coupon) === state));
  const shown = pageOf(matching, list.page, ADMIN_PAGE_SIZE);
  const categoryNames = coupons.data?.categoryNames ?? {};
  const uses = all.reduce((sum, coupon) => sum + coupon.uses, 0);

  const columns = [
    { key: "code", header: "Code", label: false, className: "adm-card-head",
      cell: (coupon) => <code className="adm-coupon-code">{coupon.code}</code> },
    { key: "discount", header: "Discount", cell: (coupon) => discountText(coupon) },
    { key: "rules", header: "Rules", cell: (coupon) => <span className="adm-small">{rulesText(coupon, categoryNames)}</span> },
    { key: "valid", header: "Valid", cell: (coupon) => <span className="adm-small">{validityText(coupon)}</span> },
    { key: "state", header: "Status", cell: (coupon) => {
      const current = couponState(coupon);
      return <span className={`adm-badge adm-badge--${STATE_BADGES[current]}`}>{stateLabel(current)}</span>;
    } },
    { key: "uses", header: "Uses", className: "adm-num", headerClassName: "adm-num", cell: (coupon) => <span data-uses>{usesText(coupon)}</span> },
    { key: "actions", header: "Actions", hiddenHeader: true, label: "", className: "adm-row-actions",
      cell: (coupon) => (
        <Link to={adminPaths.editCoupon(coupon._id)} className="adm-button adm-button--small adm-button--secondary"
          aria-label={`Edit coupon ${coupon.code}`}>Edit</Link>
      ) },
  ];

  return (
    <>
      <title>Coupons — Bookstore Admin</title>
      <header className="adm-page-head adm-page-head--row">
        <div>
          <h1>Coupons</h1>
          {coupons.data && (
            <p className="adm-page-head__lead">
              {formatCount(matching.length)} coupon{matching.length === 1 ? "" : "s"}{state && ` ${state}`}{search && ` matching “${search}”`}
              {" · "}{formatCount(uses)} use{uses === 1 ? "" : "s"} in all
            </p>
          )}
        </div>
        <Link to={adminPaths.newCoupon()} className="adm-button">+ New coupon</Link>
      </header>

      {notice && <Alert kind={notice.kind} onDismiss={() => setNotice(null)}>{notice.text}</Alert>}

      <ListFilters list={list} label="Coupons" idPrefix="coupon" placeholder="Code, e.g. EXAM10" maxLength={20}>
        <FilterSelect list={list} name="state" id="coupon-state-filter" label="Status"
          options={STATES.map((value) => [value, stateLabel(value)])} />
      </ListFilters>

      <ListRequest request={coupons} errorTitle="Failed to fetch coupons" loadingLabel="Loading coupons…">
        {() => (
          <AdminTable label="Coupon list" columns={columns} rows={shown.rows} busy={coupons.status === "loading"}
            rowProps={(coupon) => ({ "data-coupon": coupon.code })}
            empty={list.filtered
              ? { title: "No coupons found", text: "No coupon matches these filters." }
              : { title: "No coupons yet", text: "Coupons you create appear here with how often they were used." }}
            list={list} pages={shown} pagerLabel="Coupon pages" />
        )}
      </ListRequest>
    </>
  );
}
