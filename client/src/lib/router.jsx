// The client's router: the one module that knows how addresses are read, matched and changed. Screens
// and features import Link, useNavigate, useSearchParams ... from here, never from a router package.
//
// Built on wouter (about 2 KB gzipped, against react-router-dom's 20 KB): its browser-location store
// (history.pushState and replaceState patched to announce themselves, popstate and hashchange),
// its route patterns (regexparam) and its route parameters. On top of it, what the app relies on from
// react-router and wouter does not offer:
// - a location {pathname, search, hash, state, key}: every navigation writes {usr: state, key} into
//   history.state (react-router's shape), so Back and Forward find their entry's state and key again
//   (scroll positions are kept by key, the book dialog travels in the state);
// - the navigation type (PUSH, REPLACE, or POP for Back, Forward and the first load);
// - a nested route table of <Routes>/<Route> with layout routes and <Outlet>, index routes, ":param"
//   and "*" segments, the most specific route winning (react-router's ranking, simplified), and
//   nested <Routes> under a "*" route matching the rest of the address;
// - Link and NavLink that resolve "?query" and "#hash" against the current address, and replace the
//   entry when the link points at the current address (as react-router's Link does);
// - useSearchParams whose setter takes an updater, URLSearchParams, an object or a string, and
//   navigation options {replace, state}.
import { Children, createContext, forwardRef, Fragment, isValidElement, useContext, useEffect, useMemo } from "react";
import { matchRoute, Route as ParamsScope, useParams, useRouter } from "wouter";
import { useLocationProperty } from "wouter/use-browser-location";

export { useParams };

/** PUSH, REPLACE or POP: how the current entry was reached (POP also for the first load). */
let lastAction = "POP";
if (typeof window !== "undefined") window.addEventListener("popstate", () => { lastAction = "POP"; });

let current = null;
/** The current location, the same object until the address or the history entry changes. */
function readLocation() {
  const { pathname, search, hash } = window.location;
  const entry = window.history.state;
  const key = entry?.key ?? "default";
  if (!current || current.pathname !== pathname || current.search !== search || current.hash !== hash
      || current.key !== key) {
    current = { pathname, search, hash, state: entry?.usr ?? null, key, action: lastAction };
  }
  return current;
}

function newKey() {
  return Math.random().toString(36).slice(2, 10);
}

/** `to` (a string or {pathname, search, hash}) as an absolute address; "?x" and "#x" keep the current path. */
function resolve(to) {
  if (typeof to !== "string") {
    const { pathname = window.location.pathname, search = "", hash = "" } = to;
    return pathname + search + hash;
  }
  const { pathname, search } = window.location;
  if (to.startsWith("/")) return to;
  if (to.startsWith("?")) return pathname + (to === "?" ? "" : to);
  if (to.startsWith("#")) return pathname + search + to;
  if (to === "" || to === ".") return pathname + search;
  // A path relative to the current address (the app writes none today; kept simple).
  return `${pathname.replace(/\/[^/]*$/, "")}/${to}`;
}

/** navigate(to, {replace, state}) or navigate(delta) for history.go(delta). */
export function navigate(to, { replace = false, state = null } = {}) {
  if (typeof to === "number") {
    window.history.go(to);
    return;
  }
  lastAction = replace ? "REPLACE" : "PUSH";
  window.history[replace ? "replaceState" : "pushState"]({ usr: state, key: newKey() }, "", resolve(to));
}

/** The current location: {pathname, search, hash, state, key}; a new object on every navigation. */
export function useLocation() {
  return useLocationProperty(readLocation, readLocation);
}

export function useNavigationType() {
  return useLocation().action;
}

/** The navigate function (stable: it reads the address when called). */
export function useNavigate() {
  return navigate;
}

function searchParamsFrom(init) {
  if (init instanceof URLSearchParams || typeof init === "string") return new URLSearchParams(init);
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(init ?? {})) {
    for (const one of Array.isArray(value) ? value : [value]) params.append(name, one);
  }
  return params;
}

function setSearchParams(next, options) {
  const previous = new URLSearchParams(window.location.search);
  const text = searchParamsFrom(typeof next === "function" ? next(previous) : next).toString();
  navigate(window.location.pathname + (text ? `?${text}` : ""), options);
}

/** [URLSearchParams of the address, setSearchParams(next, {replace, state})]. */
export function useSearchParams() {
  const { search } = useLocation();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  return [params, setSearchParams];
}

/** True for a click the browser should handle itself (new tab, download, another target). */
function browserHandles(event, target) {
  return event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey
    || event.shiftKey || (target && target !== "_self");
}

function useLinkClick(to, { replace, state, target, onClick }) {
  return (event) => {
    onClick?.(event);
    if (browserHandles(event, target)) return;
    event.preventDefault();
    const href = resolve(to);
    const { pathname, search, hash } = window.location;
    navigate(href, { replace: replace ?? href === pathname + search + hash, state });
  };
}

export const Link = forwardRef(function Link({ to, replace, state, onClick, target, ...props }, ref) {
  useLocation(); // "?page=2" and "#x" resolve against the current address: follow it
  const handleClick = useLinkClick(to, { replace, state, target, onClick });
  return <a {...props} ref={ref} href={resolve(to)} target={target} onClick={handleClick} />;
});

/** A Link marked aria-current="page" and class "active" while the address is its path (or under it, unless `end`). */
export const NavLink = forwardRef(function NavLink({ to, end = false, className, ...props }, ref) {
  const { pathname } = useLocation();
  const target = resolve(to).replace(/[?#].*$/, "").toLowerCase();
  const here = pathname.toLowerCase();
  const active = here === target || (!end && target !== "/" && here.startsWith(`${target.replace(/\/$/, "")}/`));
  const classes = typeof className === "function" ? className({ isActive: active })
    : [className, active && "active"].filter(Boolean).join(" ") || undefined;
  return <Link {...props} ref={ref} to={to} className={classes} aria-current={active ? "page" : undefined} />;
});

/** Navigates once it has rendered (a redirect). */
export function Navigate({ to, replace = false, state = null }) {
  useEffect(() => {
    navigate(to, { replace, state });
  }, [to, replace, state]);
  return null;
}

/** A route of the table: props only, read by <Routes> (path, index, element, nested <Route>s). */
export function Route() {
  return null;
}

const OutletContext = createContext(null);
/** Where a layout route's element shows the matched child route. */
export function Outlet() {
  return useContext(OutletContext);
}

// The part of the address the enclosing "*" route matched: nested <Routes> match what follows it.
const BaseContext = createContext("");

function joinPath(base, path) {
  if (!path) return base || "/";
  return `${base.replace(/\/$/, "")}/${path.replace(/^\//, "")}`;
}

/** Every route of the table that renders a screen, with its full path and the layout elements above it. */
function flattenRoutes(children, base, layouts = [], out = []) {
  Children.forEach(children, (child) => {
    if (!isValidElement(child)) return;
    if (child.type === Fragment) {
      flattenRoutes(child.props.children, base, layouts, out);
      return;
    }
    const { path, index, element, children: nested } = child.props;
    const full = index ? base || "/" : joinPath(base, path);
    const hasChildren = Children.toArray(nested).some(isValidElement);
    if (hasChildren) flattenRoutes(nested, full, element ? [...layouts, element] : layouts, out);
    else out.push({ path: full, index: Boolean(index), element, layouts, order: out.length });
  });
  return out;
}

/** react-router's ranking, simplified: static segments weigh most, then ":params"; a "*" least. */
function score(route) {
  const segments = route.path.split("/").filter(Boolean);
  return segments.reduce((total, segment) => total + (segment === "*" ? -2 : segment.startsWith(":") ? 3 : 10),
    route.index ? 2 : 0);
}

function decodeParams(params) {
  const decoded = {};
  for (const [name, value] of Object.entries(params)) {
    if (/^\d+$/.test(name) || value === undefined) continue; // regexparam's positional copies
    try {
      decoded[name] = decodeURIComponent(value);
    } catch {
      decoded[name] = value;
    }
  }
  return decoded;
}

/** The screen for the current address among the <Route>s inside, wrapped in its layout routes' elements. */
export function Routes({ children }) {
  const { pathname } = useLocation();
  const base = useContext(BaseContext);
  const { parser } = useRouter();
  const routes = flattenRoutes(children, base).sort((a, b) => score(b) - score(a) || a.order - b.order);
  for (const route of routes) {
    // "kits/*" also matches "/admin/kits" itself, as in react-router.
    const pattern = route.path.replace(/\/\*$/, "/*?");
    const [matched, params] = matchRoute(parser, pattern, pathname);
    if (!matched) continue;
    let screen = route.element ?? null;
    if (route.path.endsWith("*")) {
      const rest = params["*"] ?? "";
      const matchedBase = rest ? pathname.slice(0, pathname.length - rest.length).replace(/\/$/, "") : pathname;
      screen = <BaseContext.Provider value={matchedBase}>{screen}</BaseContext.Provider>;
    }
    for (const layout of [...route.layouts].reverse()) {
      screen = <OutletContext.Provider value={screen}>{layout}</OutletContext.Provider>;
    }
    return <ParamsScope match={[true, decodeParams(params)]}>{screen}</ParamsScope>;
  }
  return null;
}
