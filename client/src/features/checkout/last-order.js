// The order just placed, kept for this tab so the success screen survives a reload.
const KEY = "lastOrder";

export function rememberOrder(order) {
  try {
    window.sessionStorage.setItem(KEY, JSON.stringify(order));
  } catch {
    // storage disabled: the success screen still gets the order through navigation state
  }
}

export function lastOrder() {
  try {
    return JSON.parse(window.sessionStorage.getItem(KEY));
  } catch {
    return null;
  }
}
