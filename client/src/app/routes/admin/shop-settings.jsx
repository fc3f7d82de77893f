// /admin/shipping-payments: delivery zones and dates, cash-on-delivery rules and fees, the shop's contact details
// and social links, saved all at once.
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { useRequest } from "../../../lib/use-request.js";
import { getShopSettings, saveShopSettings } from "../../../features/admin/api.js";
import {
  SETTING_LABELS, settingsBody, settingsProblems, SOCIAL, valuesFromSettings, ZONES,
} from "../../../features/admin/shop-settings-rules.js";
import { Alert } from "../../../features/admin/components/alert.jsx";
import { CheckField, ErrorSummary, FormField } from "../../../features/admin/components/form-field.jsx";
import { AdminLoading, AdminLoadError } from "../../../features/admin/components/request-state.jsx";

const PREFIX = "shop";
const fieldId = (name) => `${PREFIX}-${name.replace(/[^A-Za-z0-9_-]/g, "-")}`;

export function ShopSettings() {
  const { status, data, error, retry } = useRequest(useCallback(({ signal }) => getShopSettings({ signal }), []));
  return (
    <>
      <title>Shipping & payments — Bookstore Admin</title>
      <header className="adm-page-head">
        <h1>Shipping & payments</h1>
        <p className="adm-page-head__lead">Delivery dates, where cash on delivery is offered, and what shoppers pay for shipping.</p>
      </header>
      {status === "loading" && !data && <AdminLoading label="Loading settings…" />}
      {status === "error" && <AdminLoadError title="Failed to load the settings" error={error} retry={retry} />}
      {data && <SettingsForm settings={data} />}
    </>
  );
}

function SettingsForm({ settings }) {
  // What the server holds (the last load or save), and the form's text.
  const [saved, setSaved] = useState(() => valuesFromSettings(settings));
  const [values, setValues] = useState(saved);
  const [problems, setProblems] = useState({});
  const [failure, setFailure] = useState(null);
  const [notice, setNotice] = useState(null);
  const [saving, setSaving] = useState(false);
  const summaryRef = useRef(null);
  const summaryId = useId();

  useEffect(() => {
    if (failure) summaryRef.current?.focus();
  }, [failure]);

  const set = (name) => (event) => setValues((current) => ({ ...current, [name]: event.target.value }));
  const setZone = (zone, field, value) => setValues((current) => ({
    ...current, zones: { ...current.zones, [zone]: { ...current.zones[zone], [field]: value } },
  }));
  const bind = (props) => ({ ...props, value: values[props.name], onChange: set(props.name), disabled: saving });
  const field = (name) => ({ prefix: PREFIX, name, label: SETTING_LABELS[name], error: problems[name] });

  const submit = async (event) => {
    event.preventDefault();
    setSaving(true);
    setFailure(null);
    setNotice(null);
    const body = settingsBody(values, saved);
    try {
      const reply = await saveShopSettings(body);
      const now = valuesFromSettings(reply.settings);
      setSaved(now);
      setValues(now);
      setProblems({});
      setNotice(reply.message || "Settings saved.");
    } catch (failed) {
      setProblems(settingsProblems(failed.errors, body));
      setFailure(failed.message || "The settings were not saved.");
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className="adm-form adm-settings" onSubmit={submit} noValidate aria-busy={saving}>
      {failure && (
        <ErrorSummary message={`Nothing was saved. ${failure}`} problems={problems} labels={SETTING_LABELS}
          fieldId={fieldId} summaryRef={summaryRef} id={summaryId} />
      )}

      <fieldset className="adm-fieldset adm-panel">
        <legend>Dispatch</legend>
        <div className="adm-grid adm-grid--thirds">
          <FormField {...field("dispatchPin")} hint="Where parcels leave from.">
            {(props) => <input type="text" inputMode="numeric" maxLength={7} autoComplete="off" {...bind(props)} />}
          </FormField>
          <FormField {...field("dispatchCutoff")} label="Dispatch cut-off (IST)"
            hint="Orders placed before this time on a working day leave that day.">
            {(props) => <input type="time" step="60" {...bind(props)} />}
          </FormField>
          <FormField {...field("holidays")} hint="No dispatch or delivery (Sundays never count). One date a line, like 2026-12-25.">
            {(props) => <textarea rows={3} {...bind(props)} />}
          </FormField>
        </div>
      </fieldset>

      <fieldset className="adm-fieldset adm-panel">
        <legend>Delivery zones</legend>
        <p className="adm-hint adm-fieldset__lead">Business days from dispatch to the door, cash on delivery and shipping, by where the PIN is.</p>
        <div className="adm-zones">
          {ZONES.map((zone) => (
            <fieldset key={zone.key} className="adm-zone" data-zone={zone.key}>
              <legend>{zone.label}</legend>
              <p className="adm-hint">{zone.hint}</p>
              <div className="adm-zone__fields">
                {["minDays", "maxDays"].map((part) => {
                  const name = `zones.${zone.key}.${part}`;
                  return (
                    <FormField key={part} prefix={PREFIX} name={name} label={part === "minDays" ? "Fewest days" : "Most days"}
                      error={problems[name]}>
                      {(props) => (
                        <input type="number" min="0" max="30" step="1" inputMode="numeric" {...props} disabled={saving}
                          value={values.zones[zone.key][part]} onChange={(event) => setZone(zone.key, part, event.target.value)} />
                      )}
                    </FormField>
                  );
                })}
                <FormField prefix={PREFIX} name={`zones.${zone.key}.shippingFee`} label="Shipping (₹)"
                  hint="Per order. Blank: the flat shipping fee." className="adm-zone__fee"
                  error={problems[`zones.${zone.key}.shippingFee`]}>
                  {(props) => (
                    <input type="number" min="0" max="1000" step="0.01" inputMode="decimal" {...props} disabled={saving}
                      value={values.zones[zone.key].shippingFee}
                      onChange={(event) => setZone(zone.key, "shippingFee", event.target.value)} />
                  )}
                </FormField>
                <CheckField prefix={PREFIX} name={`zones.${zone.key}.cod`} label="Cash on delivery" disabled={saving}
                  error={problems[`zones.${zone.key}.cod`]} checked={values.zones[zone.key].cod}
                  onChange={(checked) => setZone(zone.key, "cod", checked)} />
              </div>
            </fieldset>
          ))}
        </div>
        {problems.zones && <p className="adm-field__error">{problems.zones}</p>}
      </fieldset>

      <fieldset className="adm-fieldset adm-panel">
        <legend>Cash on delivery</legend>
        <div className="adm-grid adm-grid--thirds">
          <FormField {...field("codLimit")} label="COD order value cap (₹)" hint="Largest order total paid at the door.">
            {(props) => <input type="number" min="0" step="0.01" inputMode="decimal" {...bind(props)} />}
          </FormField>
          <FormField {...field("codFee")} label="COD fee (₹)" hint="Added to a COD order as its own line; 0 for none.">
            {(props) => <input type="number" min="0" step="0.01" inputMode="decimal" {...bind(props)} />}
          </FormField>
          <FormField {...field("openCodOrdersPerContact")} hint="COD orders on their way at once, per phone and per e-mail.">
            {(props) => <input type="number" min="0" max="100" step="1" inputMode="numeric" {...bind(props)} />}
          </FormField>
          <FormField {...field("codOnPins")} hint="PINs with COD whatever their zone says. Separate with commas.">
            {(props) => <textarea rows={2} {...bind(props)} />}
          </FormField>
          <FormField {...field("codOffPins")} hint="PINs without COD whatever their zone says.">
            {(props) => <textarea rows={2} {...bind(props)} />}
          </FormField>
          <FormField {...field("unserviceablePins")} hint="The shop does not deliver there at all.">
            {(props) => <textarea rows={2} {...bind(props)} />}
          </FormField>
        </div>
      </fieldset>

      <fieldset className="adm-fieldset adm-panel">
        <legend>Shipping and order limits</legend>
        <div className="adm-grid adm-grid--thirds">
          <FormField {...field("shippingFee")} label="Shipping fee (₹)" hint="Per order, where a zone has no fee of its own.">
            {(props) => <input type="number" min="0" step="0.01" inputMode="decimal" {...bind(props)} />}
          </FormField>
          <FormField {...field("freeShippingThreshold")} label="Free shipping from (₹)"
            hint="Items total from which shipping is free. Empty: never free.">
            {(props) => <input type="number" min="0" step="0.01" inputMode="decimal" {...bind(props)} />}
          </FormField>
          <FormField {...field("maxQuantityPerLine")} hint="Most copies of one book in an order.">
            {(props) => <input type="number" min="1" max="100" step="1" inputMode="numeric" {...bind(props)} />}
          </FormField>
          <FormField {...field("unpaidCopiesPerBuyer")}
            hint="Most printed copies unpaid orders may hold at once, per network and per browser (1 to 10000).">
            {(props) => <input type="number" min="1" max="10000" step="1" inputMode="numeric" {...bind(props)} />}
          </FormField>
          <FormField {...field("largeCodCopies")}
            hint="A cash-on-delivery order of more printed copies waits for your confirmation (move it to processing), else it is cancelled (1 to 10000).">
            {(props) => <input type="number" min="1" max="10000" step="1" inputMode="numeric" {...bind(props)} />}
          </FormField>
        </div>
      </fieldset>

      <fieldset className="adm-fieldset adm-panel">
        <legend>Contact and social links</legend>
        <p className="adm-hint adm-fieldset__lead">
          Shown in the footer and on the contact page; an empty one is not shown. The address is the shop address below.
        </p>
        <div className="adm-grid adm-grid--thirds">
          <FormField {...field("contactEmail")}>
            {(props) => <input type="email" autoComplete="off" maxLength={254} {...bind(props)} />}
          </FormField>
          <FormField {...field("contactPhone")} hint="Like +91 80 4000 1234.">
            {(props) => <input type="tel" autoComplete="off" maxLength={30} {...bind(props)} />}
          </FormField>
          <FormField {...field("contactHours")} hint="Like Monday to Saturday, 9 AM to 6 PM IST.">
            {(props) => <input type="text" maxLength={100} {...bind(props)} />}
          </FormField>
          {SOCIAL.map(([, name]) => (
            <FormField key={name} {...field(name)} hint="The shop's own page: https://…">
              {(props) => <input type="url" autoComplete="off" maxLength={300} {...bind(props)} />}
            </FormField>
          ))}
        </div>
      </fieldset>

      <fieldset className="adm-fieldset adm-panel">
        <legend>Seller on bills of supply and e-mails</legend>
        <div className="adm-grid adm-grid--thirds">
          <FormField {...field("sellerName")} hint="The shop's name on bills and at the foot of every e-mail.">
            {(props) => <input type="text" maxLength={100} {...bind(props)} />}
          </FormField>
          <FormField {...field("sellerAddress")}
            hint="The shop's one postal address: printed with the name, and shown on the contact page.">
            {(props) => <textarea rows={2} maxLength={300} {...bind(props)} />}
          </FormField>
          <FormField {...field("sellerGstin")} hint="15 characters, like 29ABCDE1234F1Z5. Empty: not registered.">
            {(props) => <input type="text" maxLength={20} autoComplete="off" {...bind(props)} />}
          </FormField>
        </div>
      </fieldset>

      {notice && <Alert kind="success" onDismiss={() => setNotice(null)}>{notice}</Alert>}
      <div className="adm-actions adm-actions--end adm-settings__actions">
        <button type="submit" className="adm-button" disabled={saving}>{saving ? "Saving…" : "Save settings"}</button>
      </div>
    </form>
  );
}
