// Pure helpers of the exam screens (unit-tested in grouping.test.js).

/** [[group, exams]] in the order the exams come (the shop's order), one entry per group. */
export function groupExams(exams) {
  const groups = new Map();
  for (const exam of exams) {
    if (!groups.has(exam.group)) groups.set(exam.group, []);
    groups.get(exam.group).push(exam);
  }
  return [...groups.entries()];
}

/** "No books yet", "1 book", "1,250 books". */
export function bookCountText(count) {
  if (!count) return "No books yet";
  return count === 1 ? "1 book" : `${count.toLocaleString("en-IN")} books`;
}
