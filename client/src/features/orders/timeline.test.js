import { test } from "node:test";
import assert from "node:assert/strict";
import { timelineOf } from "./timeline.js";

const placed = { status: "pending", at: "2026-11-20T04:00:00Z", note: "" };

test("an order without parcels shows its history and the promise last", () => {
  const order = { status: "processing", paymentMethod: "cod", statusHistory: [placed,
    { status: "processing", at: "2026-11-20T06:00:00Z", note: "" }] };
  const steps = timelineOf(order, "Arriving on Tue, 24 Nov");
  assert.deepEqual(steps.map((s) => s.title), ["Order placed", "Packed", "Expected delivery"]);
  assert.equal(steps.at(-1).kind, "next");
  assert.equal(steps.at(-1).detail, "Arriving on Tue, 24 Nov");
});

test("parcels replace the shipped and delivered history and bring their events in time order", () => {
  const order = {
    status: "delivered", paymentMethod: "online", paymentStatus: "paid", paidAt: "2026-11-20T04:05:00Z",
    statusHistory: [placed, { status: "shipped", at: "2026-11-21T05:00:00Z" }, { status: "delivered", at: "2026-11-23T09:00:00Z" }],
    shipments: [{ _id: "7", courier: "Delhivery", awb: "DL1", trackingUrl: "https://t.example/DL1", shippedAt: "2026-11-21T05:00:00Z",
      lines: [{ title: "A", quantity: 1 }],
      events: [{ status: "in_transit", at: "2026-11-22T05:00:00Z", location: "Pune" },
        { status: "delivered", at: "2026-11-23T09:00:00Z", location: "" }] }],
  };
  const steps = timelineOf(order, "Arriving on Tue, 24 Nov");
  assert.deepEqual(steps.map((s) => s.title), ["Order placed", "Payment received", "Shipped with Delhivery", "In transit", "Delivered"]);
  assert.equal(steps[2].awb, "DL1");
  assert.equal(steps[2].link, "https://t.example/DL1");
  assert.equal(steps[3].detail, "Pune");
});

test("several parcels are numbered and say what they hold", () => {
  const order = {
    status: "shipped", paymentMethod: "cod", statusHistory: [placed],
    shipments: [
      { _id: "1", courier: "DTDC", awb: "D1", trackingUrl: "", shippedAt: "2026-11-21T05:00:00Z", lines: [{ title: "A", quantity: 2 }], events: [] },
      { _id: "2", courier: "Ekart", awb: "E1", trackingUrl: "", shippedAt: "2026-11-22T05:00:00Z", lines: [{ title: "B", quantity: 1 }],
        events: [{ status: "rto", at: "2026-11-23T05:00:00Z", location: "" }] },
    ],
  };
  const steps = timelineOf(order);
  assert.deepEqual(steps.map((s) => s.title), ["Order placed", "Parcel 1 shipped with DTDC", "Parcel 2 shipped with Ekart",
    "Parcel 2: Returning to the shop"]);
  assert.equal(steps[1].detail, "2 × A");
});
