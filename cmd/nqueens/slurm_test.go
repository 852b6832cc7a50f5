package main

// The Slurm recipes of docs/cluster.md, run on a real Slurm cluster:
// scripts/slurm-cluster starts one on localhost and names it in SLURM_CONF.

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/testutil"
)

// clusterDoc is the manual page whose job scripts the tests run.
const clusterDoc = "docs/cluster.md"

// jobScript is a job script of clusterDoc: a fenced code block whose info
// string names it, "```bash file=NAME", with "needs=WHAT" for a script the
// CI cluster cannot run (needs=gpu).
type jobScript struct {
	line  int // of the opening fence, from 1
	text  string
	needs string
}

// jobScripts returns the job scripts of clusterDoc by name, failing t on a
// name given twice or a block left open.
func jobScripts(t *testing.T) map[string]jobScript {
	t.Helper()
	data := testutil.ReadFile(t, filepath.Join("..", "..", clusterDoc))
	scripts := map[string]jobScript{}
	var name string
	var cur *jobScript
	var body strings.Builder
	sc := bufio.NewScanner(bytes.NewReader(data))
	for i := 1; sc.Scan(); i++ {
		line := sc.Text()
		switch {
		case cur != nil && line == "```":
			cur.text = body.String()
			scripts[name] = *cur
			cur = nil
		case cur != nil:
			body.WriteString(line + "\n")
		case strings.HasPrefix(line, "```"):
			fields := strings.Fields(strings.TrimPrefix(line, "```"))
			s := jobScript{line: i}
			name = ""
			for _, f := range fields[min(1, len(fields)):] {
				k, v, _ := strings.Cut(f, "=")
				switch k {
				case "file":
					name = v
				case "needs":
					s.needs = v
				}
			}
			if name == "" {
				continue
			}
			if prev, ok := scripts[name]; ok {
				t.Fatalf("%s:%d: a second %s (the first at line %d)", clusterDoc, i, name, prev.line)
			}
			cur = &s
			body.Reset()
		}
	}
	if cur != nil {
		t.Fatalf("%s:%d: the block of %s is not closed", clusterDoc, cur.line, name)
	}
	return scripts
}

// slurmCluster returns the slurm.conf of the cluster the tests submit to,
// named by SLURM_CONF, after scontrol has reached its controller; it skips
// the test if there is none (see noSlurm).
func slurmCluster(t *testing.T) string {
	t.Helper()
	why := missing("sbatch", "squeue", "scancel", "scontrol")
	conf := os.Getenv("SLURM_CONF")
	if why == "" && conf == "" {
		why = "SLURM_CONF is not set"
	}
	if why == "" {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		if out, err := exec.CommandContext(ctx, "scontrol", "ping").CombinedOutput(); err != nil {
			why = fmt.Sprintf("scontrol ping (SLURM_CONF=%s): %v: %s", conf, err, bytes.TrimSpace(out))
		}
	}
	if why != "" {
		noSlurm(t, why+" (run the test under scripts/slurm-cluster)")
	}
	return conf
}

// missing returns why the programs named cannot run ("sbatch not on
// PATH"), or "" if all are on PATH.
func missing(programs ...string) string {
	for _, p := range programs {
		if _, err := exec.LookPath(p); err != nil {
			return p + " not on PATH (install slurm-wlm and munge)"
		}
	}
	return ""
}

// noSlurm skips the test, saying why there is no Slurm cluster for it,
// unless NQUEENS_REQUIRE_SLURM=1 (as in CI, which runs the Slurm tests under
// scripts/slurm-cluster) makes that a failure.
func noSlurm(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("NQUEENS_REQUIRE_SLURM") == "1" {
		t.Fatalf("no Slurm cluster: %s, and NQUEENS_REQUIRE_SLURM=1", why)
	}
	t.Skipf("no Slurm cluster: %s; set NQUEENS_REQUIRE_SLURM=1 to make this a failure", why)
}

// slurmRun is a directory the test submits jobs from, as a user's shell
// in it does, with nqueens (this test binary) on PATH.
type slurmRun struct {
	t   *testing.T
	dir string
	env []string
}

// run runs name with args in the directory and returns its stdout; it
// fails t if the command fails, printing its stderr.
func (r slurmRun) run(name string, args ...string) string {
	r.t.Helper()
	out, err := r.try(name, args...)
	if err != nil {
		r.t.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
	}
	return out
}

// try runs name with args in the directory, for at most a minute, and
// returns its stdout, with an error holding its stderr if it fails.
func (r slurmRun) try(name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = r.dir
	cmd.Env = r.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("%w: %s", err, bytes.TrimSpace(stderr.Bytes()))
	}
	return stdout.String(), nil
}

// sbatch submits a job with args (options, the script and its arguments)
// and returns its id.
func (r slurmRun) sbatch(args ...string) string {
	r.t.Helper()
	out := r.run("sbatch", append([]string{"--parsable"}, args...)...)
	id, _, _ := strings.Cut(strings.TrimSpace(out), ";")
	if _, err := strconv.Atoi(id); err != nil {
		r.t.Fatalf("sbatch %s printed %q, not a job id", strings.Join(args, " "), out)
	}
	return id
}

// await returns once squeue lists no task of job id (pending or running),
// polling it every 50 ms, and fails t after three minutes. (sbatch --wait
// notices the end of a job seconds late.)
func (r slurmRun) await(id string) {
	r.t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for {
		out, err := r.try("squeue", "-h", "-j", id)
		if err != nil && !strings.Contains(err.Error(), "Invalid job id") {
			r.t.Fatalf("squeue -j %s: %v", id, err)
		}
		if strings.TrimSpace(out) == "" {
			return
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("job %s still queued after 3 minutes:\n%s", id, out)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// task is what scontrol show job says of one task of a job array.
type task struct {
	state    string // JobState: COMPLETED, FAILED, CANCELLED...
	exitCode string // ExitCode: status:signal, "0:0" for a success
}

// jobFields matches the fields of scontrol show job the tests read.
var jobFields = regexp.MustCompile(`\b(ArrayTaskId|JobState|ExitCode)=(\S+)`)

// tasks returns the tasks of job array id by index, as scontrol show job
// gives them for MinJobAge seconds after they end (the cluster keeps no
// accounting).
func (r slurmRun) tasks(id string) map[int]task {
	r.t.Helper()
	out := r.run("scontrol", "show", "job", id)
	tasks := map[int]task{}
	for _, record := range strings.Split(strings.TrimSpace(out), "\n\n") {
		fields := map[string]string{}
		for _, m := range jobFields.FindAllStringSubmatch(record, -1) {
			fields[m[1]] = m[2]
		}
		i, err := strconv.Atoi(fields["ArrayTaskId"])
		if err != nil {
			r.t.Fatalf("scontrol show job %s: a record without one array task:\n%s", id, record)
		}
		tasks[i] = task{state: fields["JobState"], exitCode: fields["ExitCode"]}
	}
	return tasks
}

// wantTasks fails t unless job id's tasks are exactly those of want, in
// the states want gives them, the COMPLETED ones with exit code 0.
func (r slurmRun) wantTasks(id string, want map[int]string) {
	r.t.Helper()
	got := r.tasks(id)
	for i, tk := range got {
		if want[i] == "" {
			r.t.Errorf("job %s: task %d is %s; no such task was submitted", id, i, tk.state)
		} else if tk.state != want[i] || (tk.state == "COMPLETED" && tk.exitCode != "0:0") {
			r.t.Errorf("job %s: task %d is %s with exit code %s, want %s", id, i, tk.state, tk.exitCode, want[i])
		}
	}
	for i, state := range want {
		if _, ok := got[i]; !ok {
			r.t.Errorf("job %s: no task %d (want %s)", id, i, state)
		}
	}
	if r.t.Failed() {
		r.t.FailNow()
	}
}

// completed returns the state COMPLETED for each task from 0 to k-1.
func completed(k int) map[int]string {
	want := map[int]string{}
	for i := range k {
		want[i] = "COMPLETED"
	}
	return want
}

// queued returns the state of each task of job array id that squeue
// lists (pending or running), by index.
func (r slurmRun) queued(id string) map[int]string {
	r.t.Helper()
	tasks := map[int]string{}
	for _, line := range strings.Split(strings.TrimSpace(r.run("squeue", "-h", "-r", "-j", id, "-o", "%K %T")), "\n") {
		index, state, _ := strings.Cut(line, " ")
		i, err := strconv.Atoi(index)
		if err != nil {
			r.t.Fatalf("squeue -r -j %s: a line %q without one array task", id, line)
		}
		tasks[i] = state
	}
	return tasks
}

// TestSlurmRecipes submits the job scripts of docs/cluster.md, as written
// there, to a real Slurm cluster (see slurmCluster): count.sh counts
// n = 16 in an array of 8 tasks, build.sh builds n = 14 in an array of 4,
// and their parts are combined and merged as the page says. A task
// cancelled while pending, then one that fails, are missing from the
// combine until a task resubmitted alone completes. The scripts that need
// what the CI cluster lacks (a GPU) are skipped by name.
func TestSlurmRecipes(t *testing.T) {
	t.Parallel()
	slurmCluster(t)
	scripts := jobScripts(t)
	root := t.TempDir()
	env := nqueensOnPath(t, root)
	for name, s := range scripts {
		switch {
		case s.needs != "":
			t.Run(name, func(t *testing.T) {
				t.Skipf("%s:%d: %s needs %s, which the CI cluster lacks: not submitted (see TestSlurmGPURecipe)", clusterDoc, s.line, name, s.needs)
			})
		case name != "count.sh" && name != "build.sh":
			t.Errorf("%s:%d: a job script %s this test does not run", clusterDoc, s.line, name)
		}
		testutil.WriteExecutable(t, filepath.Join(root, name), []byte(s.text))
	}
	for _, name := range []string{"count.sh", "build.sh"} {
		if _, ok := scripts[name]; !ok {
			t.Fatalf("%s holds no job script %s (a block opened by \"```bash file=%[2]s\")", clusterDoc, name)
		}
	}
	count := slurmRun{t, filepath.Join(root, "n16"), env}
	build := slurmRun{t, filepath.Join(root, "c14"), env}
	for _, r := range []slurmRun{count, build} {
		if err := os.Mkdir(r.dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// --cpus-per-task=1 overrides the scripts' 2, so that the node's two
	// CPUs run two tasks at a time. The count array is held, so that its
	// task 5 is certainly pending when it is cancelled.
	counted := count.sbatch("--cpus-per-task=1", "--hold", "--array=0-7", "../count.sh", "16", "8")
	built := build.sbatch("--cpus-per-task=1", "--array=0-3", "../build.sh", "14", "4")
	if got := count.queued(counted); got[5] != "PENDING" {
		t.Fatalf("job %s, held: tasks %v, want task 5 PENDING", counted, got)
	}
	count.run("scancel", counted+"_5")
	if got := count.queued(counted); len(got) != 7 || got[5] != "" {
		t.Fatalf("job %s: tasks %v queued after scancel %[1]s_5, want 7 without task 5", counted, got)
	}
	count.run("scontrol", "release", counted)
	whole := slurmRun{t, root, env}
	whole.run("nqueens", "build", "14", "--db", "whole.db", "-q")
	whole.run("nqueens", "export", "14", "--db", "whole.db", "--format", "csv", "-o", "whole.csv")

	count.await(counted)
	// A task cancelled while pending is gone: scontrol lists no task 5.
	want := completed(8)
	delete(want, 5)
	count.wantTasks(counted, want)
	// combine runs the combine of the page, on the parts the shell finds,
	// and checks it names shard 5 as missing, or else succeeds; it returns
	// what the combine printed, stderr after stdout.
	combine := func(missing bool) string {
		t.Helper()
		out, err := count.try("sh", "-c", "nqueens count --combine part-*.json 2>&1")
		_, noPart5 := os.Stat(filepath.Join(count.dir, "part-5.json"))
		switch {
		case missing && (err == nil || !strings.Contains(out, "nqueens: combine: n=16: shards 5 of 8 missing")):
			t.Fatalf("count --combine part-*.json without part 5: %v, want it to name shard 5 of 8 as missing\n%s", err, out)
		case missing && !errors.Is(noPart5, os.ErrNotExist):
			t.Fatalf("part-5.json exists (%v), but task 5 did not complete", noPart5)
		case !missing && err != nil:
			t.Fatalf("count --combine part-*.json: %v", err)
		}
		return out
	}
	combine(true)

	// A bad argument: K must be a number.
	failed := count.sbatch("--cpus-per-task=1", "--array=5", "../count.sh", "16", "eight")
	count.await(failed)
	got := count.tasks(failed)
	if tk := got[5]; len(got) != 1 || tk.state != "FAILED" || tk.exitCode == "0:0" || !strings.HasSuffix(tk.exitCode, ":0") {
		t.Fatalf("job %s, count.sh 16 eight: tasks %v, want task 5 FAILED with a non-zero exit code", failed, got)
	}
	log := string(testutil.ReadFile(t, filepath.Join(count.dir, "count-"+failed+"_5.log")))
	if !strings.Contains(log, "nqueens: ") || !strings.Contains(log, "auto/eight") {
		t.Errorf("the log of the failed task does not name the bad shard:\n%s", log)
	}
	combine(true)

	redone := count.sbatch("--cpus-per-task=1", "--array=5", "../count.sh", "16", "8")
	count.await(redone)
	count.wantTasks(redone, map[int]string{5: "COMPLETED"})
	out := combine(false)
	k, _ := nqueens.KnownCounts(16)
	row := regexp.MustCompile(`(?m)^\s*16\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s`).FindStringSubmatch(out)
	if row == nil || row[1] != strconv.FormatUint(k.Total, 10) || row[2] != strconv.FormatUint(k.Unique, 10) ||
		!strings.Contains(out, "n=16: 8 shards combined; the counts match OEIS A000170 and A002562") {
		t.Fatalf("count --combine of the 8 parts of n=16, want %d solutions in %d classes matching OEIS:\n%s", k.Total, k.Unique, out)
	}
	var classes [4]uint64
	for i := range classes {
		classes[i], _ = strconv.ParseUint(row[3+i], 10, 64)
	}
	if classes[0]+classes[1]+classes[2]+classes[3] != k.Unique || 8*classes[0]+4*classes[1]+2*classes[2]+classes[3] != k.Total {
		t.Errorf("count --combine: classes by orbit %v do not add up to %d classes of %d solutions", classes, k.Unique, k.Total)
	}

	build.await(built)
	build.wantTasks(built, completed(4))
	build.run("sh", "-c", "nqueens merge catalog.db shard-*.db")
	if out := build.run("nqueens", "verify", "--db", "catalog.db"); !strings.Contains(out, "n=14 ok: 365,596 solutions in 45,752 classes") {
		t.Fatalf("verify of the merged catalog of n=14:\n%s", out)
	}
	build.run("nqueens", "export", "14", "--db", "catalog.db", "--format", "csv", "-o", "sharded.csv")
	a := testutil.ReadFile(t, filepath.Join(root, "whole.csv"))
	b := testutil.ReadFile(t, filepath.Join(build.dir, "sharded.csv"))
	if !bytes.Equal(a, b) || len(a) == 0 {
		t.Errorf("the CSV of n=14 merged from 4 Slurm tasks (%d bytes) differs from that of a whole build (%d bytes)", len(b), len(a))
	}
}

// TestSlurmGPURecipe checks the GPU job script of docs/cluster.md, which
// no CI cluster runs (it has no GPU): it must be the count.sh that
// TestSlurmRecipes runs, with a GPU asked for and --engine gpu added, and
// nothing else changed.
func TestSlurmGPURecipe(t *testing.T) {
	t.Parallel()
	scripts := jobScripts(t)
	gpu, ok := scripts["count-gpu.sh"]
	if !ok || gpu.needs != "gpu" {
		t.Fatalf("%s holds no job script count-gpu.sh marked needs=gpu (found %v)", clusterDoc, ok)
	}
	cpu := scripts["count.sh"]
	var want []string
	for _, line := range strings.SplitAfter(cpu.text, "\n") {
		line = strings.Replace(line, ` --shard "auto/$k" `, ` --shard "auto/$k" --engine gpu `, 1)
		want = append(want, line)
		if line == "#SBATCH --cpus-per-task=2\n" {
			want = append(want, "#SBATCH --gres=gpu:1\n")
		}
	}
	got := strings.ReplaceAll(gpu.text, "count-gpu.sh", "count.sh")
	if w := strings.Join(want, ""); got != w || !strings.Contains(w, "--engine gpu") || !strings.Contains(w, "--gres=gpu:1") {
		t.Errorf("%s:%d: count-gpu.sh is not count.sh (line %d) with --gres=gpu:1 and --engine gpu:\n%s\nwant:\n%s",
			clusterDoc, gpu.line, cpu.line, gpu.text, w)
	}
}

// TestSlurmClusterStopsEverything runs scripts/slurm-cluster with a
// command that leaves a job running and a process of its own behind (one
// whose environment names the cluster), and checks that the script
// cancels the job, stops munged, slurmctld and slurmd, kills the process,
// reports it and fails, and removes its directory.
func TestSlurmClusterStopsEverything(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts a Slurm cluster")
	}
	// CI's Slurm step runs it, and the long run; the default run's Slurm
	// tests skip where no cluster answers.
	testutil.LongOnly(t)
	if why := missing("mungekey", "munged", "slurmctld", "slurmd", "sbatch", "squeue", "scancel", "scontrol"); why != "" {
		noSlurm(t, why)
	}
	if os.Geteuid() != 0 {
		noSlurm(t, "scripts/slurm-cluster runs as root")
	}
	dir := t.TempDir()
	script, err := filepath.Abs(filepath.Join("..", "..", "scripts", "slurm-cluster"))
	if err != nil {
		t.Fatal(err)
	}
	// The command prints the pids of the daemons, of the job's shell and
	// of the process it leaves, each once it is running.
	const leave = `set -eu
d=$(dirname "$SLURM_CONF")
echo "dir $d"
for f in slurmctld.pid slurmd.pid munge/munged.pid; do echo "daemon $(cat "$d/$f")"; done
job=$(sbatch --parsable --output=/dev/null --wrap 'echo $$ >job.pid; exec sleep 600')
until [ -s job.pid ]; do sleep 0.05; done
echo "job $(cat job.pid)"
setsid sleep 600 </dev/null >/dev/null 2>&1 &
echo "stray $!"
`
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, script, "bash", "-c", leave)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	if exitStatus(err) != 1 {
		t.Fatalf("slurm-cluster with a process left behind: %v, want exit status 1\nstdout:\n%s\nstderr:\n%s", err, stdout.Bytes(), stderr.Bytes())
	}
	pids := map[string][]int{}
	var clusterDir string
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		kind, value, _ := strings.Cut(line, " ")
		if kind == "dir" {
			clusterDir = value
			continue
		}
		pid, err := strconv.Atoi(value)
		if err != nil {
			t.Fatalf("the command printed %q\nstderr:\n%s", line, stderr.Bytes())
		}
		pids[kind] = append(pids[kind], pid)
	}
	if len(pids["daemon"]) != 3 || len(pids["job"]) != 1 || len(pids["stray"]) != 1 || clusterDir == "" {
		t.Fatalf("the command printed:\n%s\nstderr:\n%s", stdout.Bytes(), stderr.Bytes())
	}
	if !strings.Contains(stderr.String(), "still running after the cluster stopped, killed:\n"+strconv.Itoa(pids["stray"][0])+" sleep 600") {
		t.Errorf("slurm-cluster does not report the process left behind (pid %d):\n%s", pids["stray"][0], stderr.Bytes())
	}
	for kind, list := range pids {
		for _, pid := range list {
			if running(pid) {
				t.Errorf("%s pid %d still runs after slurm-cluster exited", kind, pid)
			}
		}
	}
	if _, err := os.Stat(clusterDir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the cluster's directory %s is still there (%v)", clusterDir, err)
	}
}

// running reports whether process pid runs: it exists and is not a
// zombie (a killed process whose parent has not reaped it).
func running(pid int) bool {
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	// pid (comm) STATE ...: comm may hold spaces and parentheses.
	rest := stat[bytes.LastIndexByte(stat, ')')+1:]
	fields := strings.Fields(string(rest))
	return len(fields) > 0 && fields[0] != "Z" && fields[0] != "X"
}
