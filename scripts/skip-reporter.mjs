// A node --test reporter that writes one JSON line per skipped test or suite (its file, name
// and reason) for scripts/run-tests.mjs to sum up; todo tests are not skips.
export default async function* skipReporter(source) {
  for await (const event of source) {
    if (event.type !== "test:pass" || !event.data.skip) continue;
    const { file, name, skip } = event.data;
    const reason = typeof skip === "string" ? skip : "no reason given";
    yield `${JSON.stringify({ file: file ?? "", name, reason })}\n`;
  }
}
