// /admin/kits/*: the kit list, /new and /edit/:id, routed inside the admin chunk (one route in the app's table
// keeps the home page's JavaScript within its budget).
import { Route, Routes } from "../../../lib/router.jsx";
import { Kits } from "./kits.jsx";
import { KitEditor } from "./kit-editor.jsx";
import { AdminNotFound } from "./not-found.jsx";

export function KitScreens() {
  return (
    <Routes>
      <Route index element={<Kits />} />
      <Route path="new" element={<KitEditor />} />
      <Route path="edit/:id" element={<KitEditor />} />
      <Route path="*" element={<AdminNotFound />} />
    </Routes>
  );
}
