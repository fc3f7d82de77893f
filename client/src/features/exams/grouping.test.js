import { test } from "node:test";
import assert from "node:assert/strict";
import { bookCountText, groupExams } from "./grouping.js";

test("exams are grouped in the order they come", () => {
  const exams = [{ slug: "a", group: "Engineering" }, { slug: "b", group: "Medical" }, { slug: "c", group: "Engineering" }];
  assert.deepEqual(groupExams(exams).map(([group, items]) => [group, items.map((e) => e.slug)]),
    [["Engineering", ["a", "c"]], ["Medical", ["b"]]]);
});

test("book counts read naturally", () => {
  assert.equal(bookCountText(0), "No books yet");
  assert.equal(bookCountText(1), "1 book");
  assert.equal(bookCountText(1250), "1,250 books");
});
