#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The viewer in headless Chromium (playwright-core driving /usr/bin/chromium) on the sample
# workflow that web/api-real-runs ran for real: job and step boxes, the three edge kinds, the three layouts,
# a step's background chart, a step whose process was killed by SIGKILL, a step still running
# (brought in live by the cluster's pipeline), the Insight panel of the steps web/insight gave insight
# rows (and the lights of the job page and the list); screenshots in $JS_CLUSTER_DIR/web-screenshots (kept in
# tests/web/screenshots of the build tree too). A hostile job name in the workflow must not
# open a dialog (the test fails on any).
. "$JS_TOP_SRCDIR/tests/lib/tap.sh"
need_cluster
state=$JS_CLUSTER_DIR/web-e2e.env
[ -s "$state" ] || skip_all "web/api-real-runs.sh did not run (no real-run data)"
. "$state"
[ -x /usr/bin/chromium ] || skip_all "no /usr/bin/chromium"
command -v node >/dev/null || skip_all "node is not installed"
tw=$JS_TOP_SRCDIR/tests/web
if [ ! -d "$tw/node_modules/playwright-core" ]; then
  # the lock file pins playwright-core; it never downloads a browser
  (cd "$tw" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund >/dev/null 2>&1) ||
    skip_all "npm ci in tests/web failed (no registry?)"
fi
out=$JS_TOP_BUILDDIR/tests/web/screenshots
rm -rf "$out"
# the edge kinds the API found in this run; the browser must draw each
kinds=$(curl -s -G -u jsalice:jsalice "${JS_WEB_URL}cgi-bin/jobscreen.cgi" --data-urlencode q=workflow \
  --data-urlencode "id=$wf" | jq -r '[.edges | to_entries[] | select(.value | length > 0) | .key] | sort | join(",")')
case ",$kinds," in *,time,*) ;; *) echo "# note: no time edge in this run (every start-after-end pair is also linked by the scheduler or a file)" ;; esac
# a step of jsalice's that runs while the browser looks: live in JS_DB within a minute
live=
if [ -s "$JS_CLUSTER_DIR/pipeline/ingest.pid" ]; then
  lw=$(mktemp -d "$JS_CLUSTER_DIR/t63.XXXXXX"); chown jsalice "$lw"; chmod 755 "$lw"
  lj=$(cd "$lw" && runuser -u jsalice -- env SLURM_CONF="$SLURM_CONF" sbatch --parsable -o /dev/null -J live63 \
    --wrap "srun sh -c 'dd if=/dev/zero of=live.dat bs=64k count=4 status=none; sleep 150'")
  at_exit "scancel $lj 2>/dev/null"
  for i in $(seq 350); do
    [ "$(psql -X -q -At -d "$JS_DB" -c "SELECT state FROM js.steps WHERE job_id = $lj AND step_id = '0' AND live AND processes > 0")" = RUNNING ] &&
      { live=$lj:0; break; }
    sleep 0.2
  done
  [ -n "$live" ] || echo "# note: job $lj's step 0 was not live in JS_DB within 70 s: the browser checks of a running step fail"
  live=${live:-$lj:0}
fi
timeout 300 node "$tw/viewer-test.js" --url "$JS_WEB_URL" --user jsalice --password jsalice \
  --workflow "$wf" --step "$sim:0" --file "$fid" --out "$out" --kinds "$kinds" --min-jobs 5 \
  ${killed:+--killed "$killed:0"} ${live:+--live "$live"} ${insight:+--insight "$insight:1:$ana"}
st=$?
cp -r "$out" "$JS_CLUSTER_DIR/web-screenshots" 2>/dev/null
exit $st
