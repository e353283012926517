#!/usr/bin/env node
/**
 * The concurrent large refresh of `bench:service`: pages through one organization's member list
 * (`GET …/members?first=N&max=M`, as the provider's authoritative refresh does), or any other list
 * that pages by `first` and `max` (a realm's organizations), again and again,
 * back to back on one connection, for a given number of seconds; prints one JSON line with the
 * time of each page position (median over the refreshes) and how many refreshes completed.
 *
 * Reads `{ url, authorization, listPath, max, seconds }` as JSON on stdin (the token stays out
 * of argv, which other local users can read).
 */
let text = '';
for await (const chunk of process.stdin) text += chunk;
const { url, authorization, listPath, max, seconds } = JSON.parse(text);

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.floor(sorted.length / 2)];
};

/** page index -> milliseconds of each fetch of that page */
const pageTimes = [];
const refreshTimes = [];
let members = 0;
const deadline = performance.now() + seconds * 1000;
while (performance.now() < deadline) {
  const refreshStarted = performance.now();
  members = 0;
  for (let index = 0; ; index += 1) {
    const started = performance.now();
    const response = await fetch(`${url}${listPath}?first=${index * max}&max=${max}`, { headers: { authorization } });
    if (response.status !== 200) throw new Error(`list answered ${response.status}: ${await response.text()}`);
    const page = await response.json();
    (pageTimes[index] ??= []).push(performance.now() - started);
    members += page.length;
    if (page.length < max) break;
  }
  refreshTimes.push(performance.now() - refreshStarted);
}
process.stdout.write(
  `${JSON.stringify({
    refreshes: refreshTimes.length,
    members,
    refreshMs: median(refreshTimes),
    firstPageMs: median(pageTimes[0]),
    // The last page that was full: the deepest offset at the full page size.
    lastFullPageMs: median(pageTimes[Math.max(0, pageTimes.length - 2)]),
  })}\n`,
);
