// SPDX-License-Identifier: GPL-2.0-or-later
/* jobscreen viewer: the warnings of a job's file and scheduler edges together (docs/api.md,
 * job "warnings"; docs/dependencies.md, "Warnings"): a read of a file another job was still
 * writing (RACE), a file edge that only luck ordered (LUCK). A list the job page shows under its
 * title; the sentences are the server's, set through textContent only. */

export function jobWarnings(warnings, jobLink) {
  if (!warnings || !warnings.length) return null;
  const box = document.createElement('div');
  box.className = 'warnings';
  const h = document.createElement('h4');
  h.textContent = 'Warnings: what the files and the scheduler\'s dependencies tell together';
  box.appendChild(h);
  const ul = document.createElement('ul');
  for (const w of warnings) {
    const li = document.createElement('li');
    const tag = document.createElement('strong');
    tag.textContent = (w.kind === 'read_while_written' ? 'Race' : 'Works by luck') + ': ';
    li.appendChild(tag);
    li.appendChild(document.createTextNode(String(w.message || '') + ' '));
    if (jobLink && w.job != null) li.appendChild(jobLink(w.job));
    ul.appendChild(li);
  }
  box.appendChild(ul);
  return box;
}
