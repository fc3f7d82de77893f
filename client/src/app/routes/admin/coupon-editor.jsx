// /admin/coupons/new and /admin/coupons/edit/:id: a coupon's code, discount and rules; back to the list once saved.
import { useCallback } from "react";
import { Link, useNavigate, useParams } from "../../../lib/router.jsx";
import { useRequest } from "../../../lib/use-request.js";
import { createCoupon, getCategories, listCoupons, updateCoupon } from "../../../features/admin/api.js";
import { adminPaths } from "../../../features/admin/paths.js";
import { useAdminForm } from "../../../features/admin/use-admin-form.js";
import {
  COUPON_LABELS, couponBody, couponProblems, EMPTY_COUPON, usesText, valuesFromCoupon,
} from "../../../features/admin/coupon-rules.js";
import { CheckField, EditorActions, ErrorSummary, FormField } from "../../../features/admin/components/form-field.jsx";
import { AdminLoading, AdminLoadError } from "../../../features/admin/components/request-state.jsx";

const PREFIX = "coupon";
const fieldId = (name) => `${PREFIX}-${name}`;

async function loadEditor({ id, signal }) {
  const [categories, coupons] = await Promise.all([getCategories({ signal }), id ? listCoupons({ signal }) : null]);
  const coupon = id ? coupons.find((found) => found._id === id) : null;
  if (id && !coupon) {
    const error = new Error("This coupon does not exist (any more).");
    error.status = 404;
    throw error;
  }
  return { categories, coupon };
}

export function CouponEditor() {
  const { id } = useParams();
  const editing = Boolean(id);
  const { status, data, error, retry } = useRequest(useCallback(({ signal }) => loadEditor({ id, signal }), [id]));
  const heading = editing ? "Edit coupon" : "New coupon";
  return (
    <>
      <title>{`${heading} — Bookstore Admin`}</title>
      <nav aria-label="Breadcrumb" className="adm-breadcrumb">
        <Link to={adminPaths.coupons()}>Coupons</Link> <span aria-hidden="true">›</span> <span>{heading}</span>
      </nav>
      <header className="adm-page-head">
        <h1>{heading}</h1>
        {data?.coupon && (
          <p className="adm-page-head__lead">
            <code>{data.coupon.code}</code> · uses so far / allowed: <strong data-coupon-uses>{usesText(data.coupon)}</strong>
          </p>
        )}
      </header>
      {status === "loading" && !data && <AdminLoading label="Loading…" />}
      {status === "error" && <AdminLoadError title={editing ? "Failed to fetch the coupon" : "Failed to load categories"}
        error={error} retry={retry} />}
      {data && (
        <section className="adm-panel">
          <CouponForm key={id ?? "new"} coupon={data.coupon} categories={data.categories} />
        </section>
      )}
    </>
  );
}

function CouponForm({ coupon, categories }) {
  const navigate = useNavigate();
  const { values, setValues, problems, setProblems, failure, setFailure, saving, setSaving, summaryRef, summaryId, bind,
    field } = useAdminForm({ initial: coupon ? valuesFromCoupon(coupon) : EMPTY_COUPON, prefix: PREFIX, labels: COUPON_LABELS });
  const check = (name) => ({ ...field(name), checked: values[name], disabled: saving,
    onChange: (checked) => setValues((current) => ({ ...current, [name]: checked })) });

  const submit = async (event) => {
    event.preventDefault();
    setSaving(true);
    setFailure(null);
    try {
      const body = couponBody(values, coupon);
      const reply = coupon ? await updateCoupon(coupon._id, body) : await createCoupon(body);
      const text = `${reply.message || "Coupon saved."} ${reply.coupon?.code ?? ""}`.trim();
      navigate(adminPaths.coupons(), { state: { notice: { kind: "success", text } } });
    } catch (failed) {
      const fromServer = couponProblems(failed.errors);
      // A clash of codes (409) belongs to the code field.
      if (failed.status === 409) fromServer.code = failed.message;
      setProblems(fromServer);
      setFailure(failed.message || "The coupon was not saved.");
      setSaving(false);
    }
  };

  const percent = values.kind === "percent";
  return (
    <form className="adm-form" onSubmit={submit} noValidate aria-busy={saving}>
      {failure && <ErrorSummary message={failure} problems={problems} labels={COUPON_LABELS} fieldId={fieldId}
        summaryRef={summaryRef} id={summaryId} />}

      <fieldset className="adm-fieldset">
        <legend>Code and discount</legend>
        <div className="adm-grid adm-grid--thirds">
          <FormField {...field("code")} required hint="3 to 20 letters, digits or hyphens; shoppers may type it in any case.">
            {(props) => <input type="text" maxLength={20} autoComplete="off" autoCapitalize="characters" spellCheck={false}
              className="adm-input-code" {...bind(props)} />}
          </FormField>
          <FormField {...field("kind")} required>
            {(props) => (
              <select {...bind(props)}>
                <option value="percent">Percent off</option>
                <option value="flat">Flat amount off (₹)</option>
              </select>
            )}
          </FormField>
          <FormField {...field("value")} label={percent ? "Discount (%)" : "Discount (₹)"} required
            hint={percent ? "A whole number from 1 to 90." : "In rupees, from ₹1."}>
            {(props) => <input type="number" min="1" step={percent ? "1" : "0.01"} inputMode="decimal" {...bind(props)} />}
          </FormField>
        </div>
      </fieldset>

      <fieldset className="adm-fieldset">
        <legend>Rules</legend>
        <div className="adm-grid adm-grid--thirds">
          <FormField {...field("minOrder")} hint="Books total needed; empty for none.">
            {(props) => <input type="number" min="0" step="0.01" inputMode="decimal" {...bind(props)} />}
          </FormField>
          <FormField {...field("validFrom")} hint="India time; empty: from now.">
            {(props) => <input type="datetime-local" {...bind(props)} />}
          </FormField>
          <FormField {...field("validTo")} hint="India time; empty: no end.">
            {(props) => <input type="datetime-local" {...bind(props)} />}
          </FormField>
          <FormField {...field("maxUses")} hint="Orders that may use it in all; empty: no limit.">
            {(props) => <input type="number" min="1" step="1" inputMode="numeric" {...bind(props)} />}
          </FormField>
          <FormField {...field("maxUsesPerCustomer")} hint="Per account, or per e-mail and phone for guests; empty: no limit.">
            {(props) => <input type="number" min="1" step="1" inputMode="numeric" {...bind(props)} />}
          </FormField>
          <FormField {...field("category")} hint="Only books of this category count.">
            {(props) => (
              <select {...bind(props)}>
                <option value="">Every category</option>
                {categories.map((category) => <option key={category._id} value={category.slug}>{category.name}</option>)}
              </select>
            )}
          </FormField>
          <CheckField {...check("firstOrderOnly")} hint="Only for a shopper's first order." />
          <CheckField {...check("active")} hint="Off: no one can use it; its uses stay counted." />
        </div>
      </fieldset>

      <EditorActions cancelTo={adminPaths.coupons()} saving={saving} label={coupon ? "Save coupon" : "Create coupon"} />
    </form>
  );
}
