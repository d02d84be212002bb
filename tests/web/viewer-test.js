#!/usr/bin/env node
// SPDX-License-Identifier: GPL-2.0-or-later
/* Browser test of the jobscreen viewer: playwright-core drives the system's Chromium
 * (/usr/bin/chromium; it never downloads a browser). Prints TAP.
 *
 *   node viewer-test.js --url URL --user U --password P --workflow ID --step JOB:STEP
 *                       --out DIR [--kinds scheduler,time,file] [--min-jobs N] [--file ID]
 *                       [--killed JOB:STEP] [--live JOB:STEP] [--insight JOB:STEP:GREYSTEP:NONE_JOB]
 *
 * It opens the list, then the workflow, checks the job and step boxes and the edge kinds
 * against what the API returned, switches the three layouts, opens the background chart of a
 * step, opens a step with a process killed by a signal (--killed: its end must read "killed by
 * SIGKILL at ..." and the step say what is missing), opens a step with insight rows (--insight:
 * its Insight panel with the light, the sentence, the evidence shaded in the background chart,
 * the advice with an XSS payload as text; a grey step of the same job, its batch step (no verdict
 * of its own: it waits for its sruns), one of a job without
 * insight; the dots of the job page and the job list), opens a running step (--live: the job list
 * marks its job live, its page says it is running and reloads itself), checks that every job's
 * label (or its group's) is drawn at the zoom the page opens with, that "expand groups" shows
 * every job in a box of its own, that a clicked file edge shows its files (fetched then), and
 * saves a screenshot at each stage into DIR. Any page error, failed API call or
 * JavaScript dialog (an XSS payload firing) fails the test. */
'use strict';
const { chromium } = require('playwright-core');
const fs = require('fs');
const path = require('path');

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const kinds = (args.kinds || 'scheduler,time,file').split(',').filter(Boolean);
const minJobs = Number(args['min-jobs'] || 1);
fs.mkdirSync(args.out, { recursive: true });

let n = 0, failed = 0;
const plan = 33 + kinds.length + (args.file ? 1 : 0) + (args.killed ? 2 : 0) + (args.live ? 3 : 0) + (args.insight ? 6 : 0);
console.log('1..' + plan);
function ok(cond, what, diag) {
  n++;
  console.log((cond ? 'ok ' : 'not ok ') + n + ' - ' + what);
  if (!cond) { failed++; if (diag) console.log('# ' + String(diag).split('\n').join('\n# ')); }
}

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.JS_CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
           '--disable-component-update', '--disable-sync'],
  });
  const ctx = await browser.newContext({ bypassCSP: true, httpCredentials: { username: args.user, password: args.password }, viewport: { width: 1400, height: 950 } });
  const page = await ctx.newPage();
  const problems = [];
  page.on('pageerror', e => problems.push('page error: ' + e.message));
  page.on('dialog', d => { problems.push('dialog opened: ' + d.message()); d.dismiss(); });
  page.on('response', r => { if (r.url().includes('jobscreen.cgi') && r.status() >= 400) problems.push('API ' + r.status() + ' ' + r.url()); });
  page.on('requestfailed', r => problems.push('request failed: ' + r.url()));
  const shot = async name => page.screenshot({ path: path.join(args.out, name + '.png'), fullPage: false });
  const base = args.url.replace(/\/?$/, '/');
  try {
    await page.goto(base + '#view=list');
    await page.waitForSelector('#workflows tbody tr a', { timeout: 15000 });
    const listed = await page.$$eval('#workflows tbody a', as => as.map(a => a.getAttribute('href')));
    ok(listed.some(h => h.includes('id=' + args.workflow)), 'the list links the workflow', listed.join(' '));
    await shot('1-list');
    /* the job list: efficiency, memory and I/O columns, times in the browser's zone with UTC on
     * hover, sorting on a header, CSV of what is listed, "go to job" */
    const cols = await page.evaluate(() => {
      const head = [...document.querySelectorAll('#jobs thead th')].map(t => t.textContent);
      const rows = [...document.querySelectorAll('#jobs tbody tr')].filter(r => r.cells.length > 1);
      const at = (r, h) => r.cells[head.indexOf(h)].textContent;
      return { head, n: rows.length, eff: rows.map(r => at(r, 'CPU eff.')), mem: rows.map(r => at(r, 'Peak mem.')), written: rows.map(r => at(r, 'Written')),
               submitTitle: rows.length ? rows[0].cells[head.indexOf('Submit')].title : null, submit: rows.length ? at(rows[0], 'Submit') : null };
    });
    ok(cols.n > 0 && cols.eff.some(t => /^\d+\.\d %$/.test(t)) && cols.mem.some(t => /iB$/.test(t)) && cols.written.every(t => /B$|^–$/.test(t)) &&
       /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(cols.submit) && / UTC$/.test(cols.submitTitle),
       'the job list shows CPU efficiency, peak memory and I/O per job; times in the browser\'s zone, UTC on hover', JSON.stringify(cols));
    const ids = async () => page.$$eval('#jobs tbody tr', rs => rs.filter(r => r.cells.length > 1).map(r => Number(r.cells[0].dataset.sort)));
    await page.click('#jobs thead th:nth-child(1)');
    const down = await ids();
    await page.click('#jobs thead th:nth-child(1)');
    const up = await ids();
    const sorted = (a, f) => a.every((v, i) => i === 0 || f(a[i - 1], v));
    ok(down.length > 1 && sorted(down, (a, b) => a >= b) && sorted(up, (a, b) => a <= b) &&
       (await page.getAttribute('#jobs thead th:nth-child(1)', 'aria-sort')) === 'ascending',
       'a click on a column header sorts the jobs by it, a second click reverses', JSON.stringify({ down, up }));
    const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 15000 }), page.click('#jobs-csv')]);
    const csv = fs.readFileSync(await dl.path(), 'utf8').split('\r\n').filter(Boolean);
    ok(csv[0].startsWith('job,job_id,name,user,cluster,workflow,state,exit_code,submit,start,end,elapsed_s,nodes,cpus,cpu_s,cpu_efficiency,max_rss_bytes,read_bytes,write_bytes') &&
       csv.length === cols.n + 1 && up.every(id => csv.some(l => l.split(',')[1] === String(id))),
       '"Download CSV": a header and a line per job listed (' + (csv.length - 1) + ')', csv.slice(0, 3).join('\n'));
    const [sjob] = args.step.split(':');
    await page.fill('#find-job input[name="id"]', sjob);
    await page.click('#find-job button');
    await page.waitForSelector('#tab-job table.steps tbody tr', { timeout: 15000 });
    const found = await page.evaluate(() => ({ hash: location.hash, title: document.querySelector('#tab-job h3').textContent }));
    ok(found.hash.includes('job=' + sjob) && found.title.startsWith('Job '), '"Go to job" opens a job by its id: its workflow, the job selected', JSON.stringify(found));
    const [xd] = await Promise.all([page.waitForEvent('download', { timeout: 15000 }), page.click('#tab-job button.export')]);
    const xj = JSON.parse(fs.readFileSync(await xd.path(), 'utf8'));
    ok(xj.format === 'jobscreen-export' && xj.jobs.length === 1 && String(xj.jobs[0].JobId) === sjob && Array.isArray(xj.jobs[0].steps) &&
       xj.jobs[0].steps.every(st => /^\d+\.\w+$/.test(st.JobID) && 'NNodes' in st && 'State' in st),
      '"Export JSON" saves the job with the JobLog fields and its steps', JSON.stringify(xj).slice(0, 400));
    const usage = await page.evaluate(() => [...document.querySelectorAll('#tab-job .card.usage tr')].map(r => r.textContent));
    ok(usage.some(t => /^CPU efficiency\d+\.\d %$/.test(t)) && usage.some(t => /^Peak memory.+iB \(largest process\)$/.test(t)),
       'the job tab shows its CPU efficiency and peak memory', JSON.stringify(usage));

    await page.goto(base + '#view=workflow&id=' + args.workflow);
    await page.waitForFunction(() => document.body.dataset.graphReady === 'graph', null, { timeout: 30000 });
    const g = await page.evaluate(() => {
      const cy = window.jobscreenViewer.cy(), wf = window.jobscreenViewer.workflow();
      return {
        apiJobs: wf.jobs.length, apiSteps: wf.jobs.reduce((a, j) => a + j.steps.filter(s => s.step !== 'extern').length, 0),
        apiKinds: [...new Set(wf.edges.map(e => e.kind))],
        jobBoxes: cy.nodes('.job').length, groups: cy.nodes('.group').length, stepBoxes: cy.nodes('.step').length,
        fileBoxes: cy.nodes('.files').length,
        edgeKinds: [...new Set(cy.edges().map(e => e.data('kind')))],
        stepsInsideJobs: cy.nodes('.step').every(s => { const j = cy.$id('j' + s.data('job')); if (!j.length) return true; const b = j.boundingBox(), p = s.position(); return p.x >= b.x1 && p.x <= b.x2 && p.y >= b.y1 && p.y <= b.y2; }),
        legend: [...document.querySelectorAll('#legend > span')].map(s => s.textContent),
      };
    });
    ok(g.apiJobs >= minJobs, 'the API returns the workflow\'s jobs (' + g.apiJobs + ')');
    ok(g.jobBoxes + g.groups > 0 && g.jobBoxes + g.groups <= g.apiJobs, 'a box per job or collapsed group (' + g.jobBoxes + ' jobs, ' + g.groups + ' groups)', JSON.stringify(g));
    ok(g.stepBoxes > 0, 'step boxes are drawn (' + g.stepBoxes + ')', JSON.stringify(g));
    ok(g.stepsInsideJobs, 'every step box lies inside its job box');
    ok(g.fileBoxes > 0, 'file boxes per access mode are drawn (' + g.fileBoxes + ')');
    for (const k of kinds) ok(g.apiKinds.includes(k) && g.edgeKinds.includes(k), 'a ' + k + ' edge is in the API and drawn', 'API: ' + g.apiKinds + ' drawn: ' + g.edgeKinds);
    ok(g.legend.some(t => /scheduler/.test(t)) && g.legend.some(t => /file/.test(t)) && g.legend.some(t => /Computation/.test(t)), 'the legend names edge kinds and runtime categories');
    const styles = await page.evaluate(() => {
      const cy = window.jobscreenViewer.cy();
      const st = k => { const e = cy.edges('.' + k); return e.length ? e[0].style('line-style') : null; };
      return { scheduler: st('scheduler'), time: st('time'), file: st('file') };
    });
    ok((!styles.scheduler || styles.scheduler === 'solid') && (!styles.time || styles.time === 'dotted') && (!styles.file || styles.file === 'dashed'),
      'edges: scheduler solid, time dotted, file dashed', JSON.stringify(styles));
    /* edges of different kinds between the same two jobs never lie on each other */
    const overlap = await page.evaluate(() => {
      const cy = window.jobscreenViewer.cy();
      const jobOf = n => (n.isChild() && n.parent().hasClass('job') ? n.parent() : n).id();
      const es = cy.edges().filter(e => e.visible()).map(e => ({ kind: e.data('kind'), key: jobOf(e.source()) + '>' + jobOf(e.target()), m: e.midpoint() }));
      let pairs = 0; const close = [];
      for (let i = 0; i < es.length; i++) for (let k = i + 1; k < es.length; k++) {
        if (es[i].key !== es[k].key || es[i].kind === es[k].kind) continue;
        pairs++;
        const d = Math.hypot(es[i].m.x - es[k].m.x, es[i].m.y - es[k].m.y) * cy.zoom();
        if (d < 8) close.push(es[i].key + ' ' + es[i].kind + '/' + es[k].kind + ' ' + d.toFixed(1) + ' px');
      }
      return { pairs, close };
    });
    ok(overlap.close.length === 0, 'edges of different kinds between the same jobs are drawn apart (' + overlap.pairs + ' pairs)', JSON.stringify(overlap));
    /* every job is named on the graph at the zoom the page opens with: its own box's label, or
     * its group's (cytoscape leaves out labels smaller than min-zoomed-font-size on screen) */
    const labels = await page.evaluate(() => {
      const cy = window.jobscreenViewer.cy(), wf = window.jobscreenViewer.workflow();
      const shown = n => n.length && n.visible() && String(n.data('label') || '').length > 0 &&
        cy.zoom() * parseFloat(n.style('font-size')) >= parseFloat(n.style('min-zoomed-font-size'));
      const missing = wf.jobs.filter(j => {
        const own = cy.$id('j' + j.id);
        if (own.length) return !(shown(own) && own.data('label').includes(String(j.array_task_id != null ? j.array_job_id + '_' + j.array_task_id : j.id)));
        const g = j.group ? cy.$id(j.group) : cy.collection();
        return !(shown(g) && (!j.name || g.data('label').includes(j.name)));
      }).map(j => j.id);
      return { zoom: cy.zoom(), missing };
    });
    await page.waitForSelector('#tab-workflow .step-names table tbody tr', { timeout: 15000 });
    const names = await page.evaluate(() => [...document.querySelectorAll('#tab-workflow .step-names tbody tr')].map(r => [...r.cells].map(c => c.textContent)));
    ok(names.length > 0 && names.every(r => r.length === 11 && Number(r[2]) >= 1) && names.some(r => /^\d+\.\d %$/.test(r[7])),
      'the workflow tab sums time, CPU efficiency, memory and I/O per job and step name', JSON.stringify(names.slice(0, 3)));
    /* two runs side by side: the workflow against itself matches every row, no change */
    await page.fill('#tab-workflow form.compare-with input[name="other"]', String(args.workflow));
    await page.click('#tab-workflow form.compare-with button');
    await page.waitForSelector('#compare-view table.compare tr.total', { timeout: 15000 });
    const cmp = await page.evaluate(() => ({ hash: location.hash, rows: [...document.querySelectorAll('#compare-view table.compare tbody tr')].map(r => [...r.cells].map(c => c.textContent)) }));
    ok(cmp.hash.includes('view=compare') && cmp.rows.length === names.length + 1 && cmp.rows.every(r => r[4] === '+0.0 %' || r[4] === '–') &&
       cmp.rows[cmp.rows.length - 1][0] === 'Total' && cmp.rows.some(r => /\d+\.\d %$/.test(r[5]) && r[5] === r[6]),
      'compare: a workflow against itself matches every job and step name, with no change', JSON.stringify(cmp));
    await shot('2c-compare');
    await page.goto(base + '#view=workflow&id=' + args.workflow);
    await page.waitForFunction(() => document.body.dataset.graphReady === 'graph', null, { timeout: 30000 });
    ok(labels.missing.length === 0, 'every job\'s label (or its group\'s) is drawn at the opening zoom (' + labels.zoom.toFixed(2) + ')', JSON.stringify(labels));
    /* and far out (a tenth of the fit): the names grow to stay readable */
    await page.evaluate(() => { const cy = window.jobscreenViewer.cy(); cy.fit(undefined, 20); cy.zoom({ level: cy.zoom() / 10, renderedPosition: { x: cy.width() / 2, y: cy.height() / 2 } }); });
    await page.waitForTimeout(300);
    const far = await page.evaluate(() => {
      const cy = window.jobscreenViewer.cy();
      const small = cy.nodes('.job, .group').filter(n => n.visible() && cy.zoom() * parseFloat(n.style('font-size')) < parseFloat(n.style('min-zoomed-font-size'))).map(n => n.id());
      return { zoom: cy.zoom(), small, fs: cy.nodes('.job, .group').length ? cy.nodes('.job, .group')[0].style('font-size') : null };
    });
    ok(far.small.length === 0, 'zoomed out to ' + far.zoom.toFixed(3) + ', every job or group is still named (its label grows)', JSON.stringify(far));
    await page.evaluate(() => { window.jobscreenViewer.cy().fit(undefined, 20); }); // nothing back: see the tap below
    /* a tooltip names what is under the mouse */
    const jp = await page.evaluate(() => {
      const n = window.jobscreenViewer.cy().nodes('.job').filter(x => x.visible())[0];
      const g = document.querySelector('#graph').getBoundingClientRect(), p = n.renderedPosition(), h = n.renderedHeight();
      return { x: g.left + p.x, y: g.top + p.y - h / 2 + 6, job: n.data('job') };
    });
    await page.mouse.move(jp.x, jp.y);
    await page.waitForFunction(() => document.querySelector('#graph').title !== '', null, { timeout: 5000 }).catch(() => {});
    const tip = await page.evaluate(() => document.querySelector('#graph').title);
    ok(/^Job \S+/.test(tip) && /\n(COMPLETED|FAILED|CANCELLED|RUNNING|TIMEOUT)?, /.test(tip), 'hovering a job box shows its name, state, times and share', JSON.stringify({ tip, jp }));
    await page.mouse.move(0, 0);
    await shot('2-graph');
    if (kinds.includes('file')) {
      // nothing back: emit returns the edge's collection, which reaches the whole graph and its
      // renderer; Playwright walked all of it to serialise it, once for 4.5 minutes (CI, 2026-11-29)
      await page.evaluate(() => { window.jobscreenViewer.cy().edges('.file')[0].emit('tap'); });
      await page.waitForSelector('#tab-workflow ul.mono li', { timeout: 15000 });
      const ev = await page.evaluate(() => ({ title: document.querySelector('#tab-workflow h3').textContent, files: [...document.querySelectorAll('#tab-workflow ul.mono li')].map(l => l.textContent) }));
      ok(/^file written → read: Job .* step .* → Job .* step /.test(ev.title) && ev.files.length > 0 && ev.files.every(f => f.startsWith('/')),
        'a clicked file edge shows the files it stands for (fetched for that edge)', JSON.stringify(ev));
      await shot('2b-file-edge');
    } else ok(true, 'no file edge in this run: the edge detail is not checked # SKIP');
    const before = await page.evaluate(() => Number(document.body.dataset.graphDrawn));
    await page.click('#expand-all');
    await page.waitForFunction(n => Number(document.body.dataset.graphDrawn) > n, before, { timeout: 30000 });
    const expanded = await page.evaluate(() => ({ jobs: window.jobscreenViewer.workflow().jobs.length, boxes: window.jobscreenViewer.cy().nodes('.job').length, groups: window.jobscreenViewer.cy().nodes('.group').length }));
    ok(expanded.boxes === expanded.jobs && expanded.groups === 0, '"expand groups" draws every job in a box of its own', JSON.stringify(expanded));
    await page.click('#expand-all');
    await page.waitForFunction(n => Number(document.body.dataset.graphDrawn) > n + 1, before, { timeout: 30000 });

    const widths = {};
    for (const layout of ['duration', 'timeline', 'graph']) {
      await page.click('button[data-layout="' + layout + '"]');
      await page.waitForFunction(l => document.body.dataset.graphReady === l, layout, { timeout: 30000 });
      widths[layout] = await page.evaluate(() => window.jobscreenViewer.cy().nodes('.job').map(n => Math.round(n.width())));
      if (layout === 'timeline') {
        /* true to scale against its own time axis: each job box from its start to its end */
        const tl = await page.evaluate(() => {
          const cy = window.jobscreenViewer.cy(), wf = window.jobscreenViewer.workflow();
          const ticks = [...document.querySelectorAll('#time-axis .tick')].map(t => ({ t: Number(t.dataset.t), x: parseFloat(t.style.left), title: t.title }));
          if (ticks.length < 2 || document.querySelector('#time-axis').hidden) return { ticks };
          const pps = (ticks[1].x - ticks[0].x) / (ticks[1].t - ticks[0].t), at = t => ticks[0].x + (t - ticks[0].t) * pps;
          const off = [];
          for (const j of wf.jobs) {
            const n = cy.$id('j' + j.id);
            if (!n.length || j.start == null || j.end == null) continue;
            const bb = n.renderedBoundingBox({ includeLabels: false, includeOverlays: false }), bw = n.renderedOuterWidth() - n.renderedWidth();
            const x1 = bb.x1 + bw / 2, x2 = bb.x2 - bw / 2;
            if (Math.abs(x1 - at(j.start)) > 3 || Math.abs(x2 - Math.max(at(j.end), x1 + 4 * cy.zoom())) > 3) off.push({ job: j.id, x1, x2, start: at(j.start), end: at(j.end) });
          }
          return { ticks: ticks.length, utc: / UTC$/.test(ticks[0].title), checked: wf.jobs.length, off };
        });
        ok(tl.ticks >= 2 && tl.utc && tl.off && tl.off.length === 0,
          'timeline: a time axis (UTC on hover), every job box from its start to its end on it (' + tl.checked + ' jobs)', JSON.stringify(tl));
      }
      await shot('3-layout-' + layout);
    }
    const distinct = a => new Set(a).size;
    ok(distinct(widths.graph) === 1, 'dependency graph: equal job boxes', JSON.stringify(widths.graph));
    ok(widths.duration.length < 2 || distinct(widths.duration) > 1 || distinct(widths.timeline) > 1, 'duration and timeline layouts size boxes by time', JSON.stringify(widths));

    const [job, step] = args.step.split(':');
    await page.goto(base + '#view=workflow&id=' + args.workflow + '&layout=timeline&sel=step:' + job + ':' + step);
    await page.waitForFunction(s => document.body.dataset.backgroundReady === s, job + ':' + step, { timeout: 30000 });
    const bg = await page.evaluate(() => {
      const c = document.querySelector('#tab-step .background canvas');
      const chart = c && window.Chart && window.Chart.getChart(c);
      return { canvas: !!c, datasets: chart ? chart.data.datasets.map(d => d.label + ':' + d.data.length) : [] };
    });
    ok(!(await page.isHidden('#tab-step')), 'selecting a step opens the step tab');
    ok(bg.canvas && bg.datasets.length === 2 && bg.datasets.every(d => !/:0$/.test(d)), 'the background chart draws the step against all other jobs', JSON.stringify(bg));
    const kernel = await page.evaluate(() => {
      const card = [...document.querySelectorAll('#tab-step .card')].find(c => /^I\/O the kernel counted/.test((c.querySelector('h4') || {}).textContent || ''));
      const c = card && card.querySelector('canvas'), chart = c && window.Chart && window.Chart.getChart(c);
      return chart ? chart.data.datasets.map(d => d.label) : null;
    });
    ok(kernel && kernel.includes('kernel_wchar'), 'the step tab charts the I/O the kernel counted per slice beside the wrappers\' (profile format 5)', JSON.stringify(kernel));
    /* the charts draw the API's series as they come (docs/api.md, "Series"): a point per entry of
     * its arrays, at the time of its first slice, the sum a rate per second of its slices */
    const drawn = await page.evaluate(async ([job, step]) => {
      const u = new URL((document.querySelector('meta[name="jobscreen-api"]') || {}).content || 'cgi-bin/jobscreen.cgi', location.href);
      u.username = ''; u.password = ''; u.search = 'q=step&points=1500&job=' + job + '&step=' + step;
      const r = await fetch(u.toString(), { credentials: 'same-origin' });
      const ser = (await r.json()).step.series;
      const card = [...document.querySelectorAll('#tab-step .card')].find(c => /^CPU/.test((c.querySelector('h4') || {}).textContent || ''));
      const c = card && card.querySelector('canvas'), chart = c && window.Chart && window.Chart.getChart(c);
      const d = chart && chart.data.datasets.find(x => x.label === 'cpu_ns');
      const w = ser.slices_per_point, L = ser.slice_seconds, last = ser.points - 1;
      const want = i => ({ x: (ser.first_slice + i * w) * L, y: ser.metrics.cpu_ns[i] * 1e-9 / (L * Math.min(w, ser.slices - i * w)) });
      const same = (a, b) => a.x === b.x && Math.abs(a.y - b.y) <= 1e-9 * Math.max(1, Math.abs(b.y));
      return { points: ser.points, drawn: d ? d.data.length : -1, first: d && same(d.data[0], want(0)), last: d && same(d.data[last], want(last)) };
    }, [job, step]);
    ok(drawn.points > 0 && drawn.drawn === drawn.points && drawn.first && drawn.last, 'the step\'s CPU chart draws the series\' cpu_ns array point by point, as rates', JSON.stringify(drawn));
    await shot('4-step-background');
    const digest = await page.evaluate(() => [...document.querySelectorAll('#tab-step table.digest tbody tr')].map(r => [r.cells[0].textContent, r.cells[0].title, r.cells[3] && r.cells[3].textContent]));
    ok(digest.length > 0 && digest.every(([label]) => !/_/.test(label)) && digest.some(([, name, max]) => /_bytes$/.test(name) && /\d B$|iB$/.test(max)) &&
       digest.some(([label, name, max]) => name === 'cpu_ns' && label === 'CPU time' && /(ms|s|min)$/.test(max)),
      'the digest names metrics in words (the name on hover) and gives values in their units', JSON.stringify(digest.slice(0, 6)));
    await page.selectOption('#tab-step select[name="scope"]', 'nodes');
    await page.waitForTimeout(300);
    await page.waitForFunction(s => document.body.dataset.backgroundReady === s, job + ':' + step, { timeout: 30000 });
    await page.evaluate(() => document.querySelector('#tab-step .background').scrollIntoView());
    await shot('5-step-background-nodes');

    await page.goto(base + '#view=workflow&id=' + args.workflow + '&sel=job:' + job);
    await page.waitForSelector('#tab-job table.steps tbody tr', { timeout: 15000 });
    ok((await page.$$('#tab-job canvas')).length >= 2, 'the job tab shows the step share and category charts');
    const pie = await page.evaluate(() => {
      const c = document.querySelector('#tab-job canvas'), chart = c && window.Chart && window.Chart.getChart(c);
      return chart ? chart.data.labels : null;
    });
    ok(pie && pie.length > 0 && (!pie.some(l => /^Step \d/.test(l)) || !pie.some(l => /^Step batch/.test(l))),
      'the step share counts the numbered steps, not the batch step that wraps them as well', JSON.stringify(pie));
    await shot('6-job');

    if (args.file) {
      await page.goto(base + '#view=workflow&id=' + args.workflow + '&sel=file:' + args.file);
      await page.waitForSelector('#tab-file table tbody tr', { timeout: 15000 });
      const f = await page.evaluate(() => ({ canvas: !!document.querySelector('#tab-file canvas'), rows: document.querySelectorAll('#tab-file table.data tbody tr').length, title: document.querySelector('#tab-file h3').textContent }));
      ok(f.canvas && f.rows >= 2, 'the file tab shows its writers and readers over time (' + f.rows + ' accesses of ' + f.title + ')', JSON.stringify(f));
      await shot('7-file');
    }

    if (args.killed) {
      const [kjob, kstep] = args.killed.split(':');
      await page.goto(base + '#view=workflow&job=' + kjob + '&sel=step:' + kjob + ':' + kstep);
      await page.waitForSelector('#tab-step table.processes tbody tr', { timeout: 15000 });
      const k = await page.evaluate(() => ({
        ends: [...document.querySelectorAll('#tab-step table.processes tbody tr')].map(r => ({ cls: r.className, end: (r.querySelector('td.end') || {}).textContent })),
        incomplete: (document.querySelector('#tab-step p.incomplete') || {}).textContent,
      }));
      const killedRows = k.ends.filter(r => /^killed by SIGKILL at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d; missing: CPU time after the kill$/.test(r.end));
      ok(killedRows.length === 1 && killedRows[0].cls === 'killed' && k.ends.filter(r => /^exited at /.test(r.end)).length === k.ends.length - 1,
        'a process killed by a signal reads "killed by SIGKILL at <time>", the others "exited at <time>"', JSON.stringify(k));
      ok(k.incomplete === 'Incomplete: 1 process: CPU time after the kill', 'the step says what is missing of it', JSON.stringify(k));
      await page.evaluate(() => document.querySelector('#tab-step table.processes').scrollIntoView());
      await shot('8-step-killed-process');
    }
    if (args.insight) {
      const [ijob, istep, grey, none] = args.insight.split(':');
      await page.goto(base + '#view=workflow&job=' + ijob + '&sel=step:' + ijob + ':' + istep);
      await page.waitForFunction(s => document.body.dataset.insightReady === s && document.body.dataset.backgroundReady === s, ijob + ':' + istep, { timeout: 30000 });
      const p = await page.evaluate(() => {
        const card = document.querySelector('#tab-step .card.insight');
        const next = card && card.nextElementSibling;
        return card && {
          cls: card.className, dot: (card.querySelector('.verdict .light') || {}).className, sentence: card.querySelector('.verdict .sentence').textContent,
          evidence: card.querySelectorAll('table.evidence tbody tr').length, kv: [...card.querySelectorAll('table.kv tr')].map(r => r.textContent),
          advice: [...card.querySelectorAll('ul.advice li')].map(li => li.className + '|' + li.textContent), imgs: card.querySelectorAll('img').length,
          beforeBackground: !!(next && next.classList.contains('background')), heading: (document.querySelector('#tab-step h3 .light') || {}).className,
        };
      });
      ok(p && /insight-red/.test(p.cls) && p.dot === 'light light-red' && p.heading === 'light light-red' && p.beforeBackground &&
         /^Disturbed: lost ~12 s \(15 %\) while other jobs' I\/O peaked \(whole cluster\) at \d\d:\d\d:\d\d-\d\d:\d\d:\d\d, and in 1 more stretch\.$/.test(p.sentence),
        'the step\'s Insight panel, above the background chart: a red light and one plain sentence', JSON.stringify(p));
      ok(p && p.evidence === 2 && p.kv.some(t => /^MPI interference9\.1 % \(medium\): 12 of 4000 segments/.test(t)) &&
         p.kv.some(t => /^Periodic I\/Oevery ~60 s \(Z-score 4\.20;/.test(t)) && p.kv.some(t => /^Write patternwrites with seeks in between \(write-seek\)$/.test(t)) &&
         p.advice.length === 3 && /^advice-high\|/.test(p.advice[0]) && p.advice[1] === 'advice-warning|warning <img src=x onerror=alert(3)> writes of 512 B' && p.imgs === 0,
        'its evidence, MPI interference estimate, I/O period, write pattern and advice (a payload shown as text)', JSON.stringify(p));
      const shaded = await page.evaluate(() => { const c = document.querySelector('#tab-step .background canvas'); return c && c.dataset.shaded; });
      ok(Number(shaded) >= 1, 'the background chart shades the disturbed stretches (' + shaded + ')', String(shaded));
      await page.evaluate(() => document.querySelector('#tab-step .card.insight').scrollIntoView());
      await shot('10-step-insight');
      const sentenceOf = async (j, st) => {
        await page.goto(base + '#view=workflow&job=' + j + '&sel=step:' + j + ':' + st);
        await page.waitForFunction(s => document.body.dataset.insightReady === s, j + ':' + st, { timeout: 30000 });
        return page.evaluate(() => document.querySelector('#tab-step .card.insight .verdict').textContent);
      };
      const g = await sentenceOf(ijob, grey), z = await sentenceOf(none, '0');
      ok(/^ Too little data to tell: one whole slice only\.$/.test(g) && /^ Not computed yet/.test(z),
        'a grey step says "Too little data to tell", a step without insight "Not computed yet"', g + ' / ' + z);
      const b = await sentenceOf(ijob, 'batch');
      const bt = await page.evaluate(() => document.querySelector('#tab-step .card.insight .verdict .light').title);
      ok(b === ' No verdict of its own: the batch script waits for its srun steps, which are judged.' && bt === b.trim(),
        'the batch step that waits for its sruns says it has no verdict of its own (sentence and light)', b + ' / ' + bt);
      await page.goto(base + '#view=workflow&job=' + ijob + '&sel=job:' + ijob);
      await page.waitForSelector('#tab-job table.steps tbody tr', { timeout: 15000 });
      const steps = await page.evaluate(() => [...document.querySelectorAll('#tab-job table.steps tbody tr')].map(r => r.cells[0].textContent + '=' + (r.querySelector('.light') || {}).className));
      await page.goto(base + '#view=list');
      await page.waitForSelector('#jobs tbody tr a', { timeout: 15000 });
      const listed = await page.evaluate(id => {
        const r = [...document.querySelectorAll('#jobs tbody tr')].find(tr => (tr.querySelector('td a') || {}).textContent === id);
        return r && r.querySelector('td.insight').textContent + '|' + r.querySelector('td.insight .light').className;
      }, ijob);
      ok(steps.includes(istep + '=light light-red') && steps.includes(grey + '=light light-grey') && listed === ' ~12 s|light light-red',
        'the job page shows a light per step, the job list the job\'s worst light and time lost', JSON.stringify({ steps, listed }));
    }
    if (args.live) {
      const [ljob, lstep] = args.live.split(':');
      await page.goto(base + '#view=list');
      await page.waitForSelector('#jobs tbody tr a', { timeout: 15000 });
      const row = await page.evaluate(id => {
        const r = [...document.querySelectorAll('#jobs tbody tr')].find(tr => (tr.querySelector('td a') || {}).textContent === id);
        return r ? { live: !!r.querySelector('span.live'), state: r.children[4].textContent } : null;
      }, ljob);
      ok(row && row.live, 'the job list marks the running job live', JSON.stringify(row));
      await page.goto(base + '#view=workflow&job=' + ljob + '&sel=step:' + ljob + ':' + lstep);
      await page.waitForSelector('#tab-step p.live-note', { timeout: 15000 });
      const note = await page.textContent('#tab-step p.live-note');
      const end = await page.evaluate(() => [...document.querySelectorAll('#tab-step .card tr')].map(r => r.textContent).find(t => /^End/.test(t)));
      ok(/^Running: its data so far \(snapshot of .+\); this page refreshes every \d+ s\.$/.test(note) && end === 'Endstill running',
        'the running step\'s page says it is running (no end time) and shows its data so far', note + ' / ' + end);
      await shot('9-step-live');
      const again = await page.waitForResponse(r => /[?&]q=step(&|$)/.test(r.url()) && r.url().includes('job=' + ljob), { timeout: 45000 }).catch(() => null);
      ok(again && again.status() === 200, 'the running step\'s page reloads itself');
    }
  } catch (e) {
    problems.push('exception: ' + e.stack);
    await shot('error').catch(() => {});
  }
  ok(problems.length === 0, 'no page errors, failed API calls or dialogs', problems.join('\n'));
  while (n < plan) ok(false, 'not reached');
  await browser.close();
  process.exit(failed ? 1 : 0);
})();
