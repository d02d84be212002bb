// SPDX-License-Identifier: GPL-2.0-or-later
/* jobscreen viewer: the JSON API (docs/api.md): where it answers, one request, its errors
 * shown in #error. */
import { $ } from './util.js';

const API = (() => {
  const u = new URL((document.querySelector('meta[name="jobscreen-api"]') || {}).content || 'cgi-bin/jobscreen.cgi', location.href);
  u.username = ''; u.password = ''; u.search = ''; u.hash = '';
  return u.toString();
})();

class ApiError extends Error { constructor(status, msg) { super(msg); this.status = status; } }
export async function api(endpoint, params) {
  const q = new URLSearchParams({ q: endpoint });
  for (const [k, v] of Object.entries(params || {})) if (v !== undefined && v !== null && v !== '') q.set(k, v);
  const r = await fetch(API + '?' + q.toString(), { credentials: 'same-origin', headers: { Accept: 'application/json' } });
  let body = null;
  try { body = await r.json(); } catch (e) { body = null; }
  if (!r.ok) throw new ApiError(r.status, (body && body.error && body.error.message) || ('HTTP ' + r.status));
  return body;
}
export function showError(e) {
  const box = $('#error');
  box.hidden = false;
  box.textContent = (e instanceof ApiError ? 'Error ' + e.status + ': ' : 'Error: ') + e.message;
}
export function hideError() { $('#error').hidden = true; }
