/**
 * The static files of the login page and the dashboard, kept in code so the build copies nothing:
 * one stylesheet and one small script (copy buttons, confirmations). Served from the service's own
 * origin, so the Content-Security-Policy needs no inline script or style.
 */
import type { FastifyInstance } from 'fastify';
import { WEB_ASSETS_PATH } from '../login-paths';

const CSS = `
:root { --fg: #1d232b; --muted: #5b6673; --line: #d6dbe1; --accent: #2456b3; --bad: #a4271b; --warn-bg: #fff4d6; --ok-bg: #e7f5ea; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: #f6f7f9; }
nav { display: flex; gap: 1.25rem; align-items: center; padding: .75rem 1.5rem; background: #1d232b; color: #fff; }
nav a { color: #dfe6ef; text-decoration: none; }
nav a[aria-current="page"] { color: #fff; font-weight: 600; border-bottom: 2px solid #fff; }
nav .who { margin-left: auto; color: #b8c2cf; }
nav form { margin: 0; }
main { max-width: 1100px; margin: 1.5rem auto; padding: 0 1.5rem; }
h1 { font-size: 1.5rem; margin: 0 0 1rem; }
h2 { font-size: 1.15rem; margin: 1.5rem 0 .5rem; }
table { width: 100%; border-collapse: collapse; background: #fff; border: 1px solid var(--line); }
th, td { text-align: left; padding: .5rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: #eef1f5; font-weight: 600; }
td form { display: inline-block; margin: 0 .25rem .25rem 0; }
.card { background: #fff; border: 1px solid var(--line); padding: 1rem 1.25rem; margin: 1rem 0; }
.login { max-width: 380px; margin: 4rem auto; }
label { display: block; margin: .5rem 0 .2rem; font-weight: 600; }
label.check { display: inline-flex; gap: .35rem; font-weight: normal; margin-right: 1rem; }
input[type=text], input[type=password], input[type=email], input[type=number], input[type=search], select { width: 100%; padding: .45rem .5rem; border: 1px solid var(--line); font: inherit; }
button { font: inherit; padding: .4rem .9rem; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; }
button.secondary { background: #fff; color: var(--accent); }
button.danger { background: #fff; color: var(--bad); border-color: var(--bad); }
.row { display: flex; gap: .5rem; align-items: end; flex-wrap: wrap; }
.row > * { flex: 1 1 180px; }
.row > button { flex: 0 0 auto; }
.error { background: #fbe9e7; border: 1px solid var(--bad); color: var(--bad); padding: .6rem .8rem; margin: 1rem 0; }
.notice { background: var(--ok-bg); border: 1px solid #7bb68a; padding: .6rem .8rem; margin: 1rem 0; }
.warning { background: var(--warn-bg); border: 1px solid #d9a400; padding: .6rem .8rem; margin: 1rem 0; font-weight: 600; }
.secret { display: flex; gap: .5rem; align-items: center; margin: .35rem 0; }
.secret code { flex: 1; padding: .45rem .5rem; background: #f0f2f5; border: 1px solid var(--line); word-break: break-all; }
.muted { color: var(--muted); }
.status-revoked, .status-disabled { color: var(--bad); font-weight: 600; }
.status-active, .status-enabled { color: #1f7a35; font-weight: 600; }
.pager { display: flex; gap: 1rem; margin: .75rem 0; }
`;

const JS = `'use strict';
// Copy buttons: <button data-copy="element-id">. Confirmations: <form data-confirm="question">.
document.addEventListener('click', function (event) {
  var button = event.target.closest('button[data-copy]');
  if (!button) return;
  event.preventDefault();
  var source = document.getElementById(button.getAttribute('data-copy'));
  if (!source) return;
  var text = source.textContent;
  var done = function () { button.textContent = 'Copied'; };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(done, function () { selectText(source); });
  } else {
    selectText(source);
    try { document.execCommand('copy'); done(); } catch (e) { /* the text stays selected for a manual copy */ }
  }
});
function selectText(element) {
  var range = document.createRange();
  range.selectNodeContents(element);
  var selection = window.getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
}
document.addEventListener('submit', function (event) {
  var question = event.target.getAttribute && event.target.getAttribute('data-confirm');
  if (question && !window.confirm(question)) event.preventDefault();
});
`;

/** Registers the asset routes (public, cacheable, the same for every realm). */
export async function webAssetRoutes(app: FastifyInstance): Promise<void> {
  const serve = (path: string, type: string, body: string) =>
    app.get(`${WEB_ASSETS_PATH}/${path}`, async (_request, reply) =>
      reply.header('content-type', type).header('cache-control', 'public, max-age=3600').header('x-content-type-options', 'nosniff').send(body),
    );
  serve('orgadmin.css', 'text/css; charset=utf-8', CSS);
  serve('orgadmin.js', 'text/javascript; charset=utf-8', JS);
}
