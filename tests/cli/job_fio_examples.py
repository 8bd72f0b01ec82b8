#!/usr/bin/env python3
"""job_fio_examples.py - fio's own example job files (Debian's fio-examples) through fio
and iobattery: every example through both --parse-only (an example fio accepts must be
accepted by iobattery, or refused naming an engine it lacks, zonemode=zbd without a zoned
device, or an option listed in EXPECTED_REFUSED), then a set of them for real at a small
size through both, comparing per job the I/O count, the bytes and the read/write mix.
The examples are read from the system and rewritten into a temporary directory at run
time (small sizes, no devices, no runtime): nothing of them is kept in the tree.
usage: job_fio_examples.py IOB EXAMPLES_DIR TMPDIR; exit 0 pass, 1 fail."""
import concurrent.futures, json, os, re, subprocess, sys

IOB, EX, TMP = sys.argv[1], sys.argv[2], sys.argv[3]

# refused for an option iobattery does not do (fio's own verification formats, writing
# until the device is full: surface-scan.fio); a reason each
EXPECTED_REFUSED = {
    "verify_pattern": "fio's pattern verification",
    "verify_interval": "fio's verify header", "fill_device": "writes until ENOSPC",
}

def run(cmd, cwd=None):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    return p.returncode, p.stdout, p.stderr

def parse_only(failures):
    """Every example through iobattery --parse-only; fio --parse-only (most of a second
    each, mostly its start) only on those iobattery refuses for a reason not listed,
    where fio accepting the file makes the test fail."""
    names = sorted(f for f in os.listdir(EX) if f.endswith(".fio"))
    ours = listed = 0
    for f in names:
        path = os.path.join(EX, f)
        rc, _, err = run([IOB, "job", "--parse-only", path])
        if rc == 0:
            ours += 1
            continue
        last = [l for l in err.splitlines() if l.startswith("iobattery:")]
        msg = last[-1] if last else err.strip()
        m = re.search(r"fio option '([a-z_0-9]+)' is not implemented", msg)
        if re.search(r"engine is not implemented|unknown engine|zonemode=zbd", msg) or \
           (m and m.group(1) in EXPECTED_REFUSED):
            listed += 1
            continue
        if run(["fio", "--parse-only", path])[0] == 0:
            failures.append("%s: fio accepts it, iobattery: %s" % (f, msg))
    print("parse: %d of %d examples accepted by iobattery, %d refused naming an engine "
          "or a listed option" % (ours, len(names), listed))
    return ours

SIZE = 4 << 20
DROP = re.compile(r"^\s*(time_based|runtime|timeout|directory|ramp_time)\b")

def nbytes(v):
    """A size as fio writes it (digits and k, m, g, t), or a huge one when not such."""
    m = re.match(r"^(\d+)([kmgt]?)i?b?$", v.lower())
    if not m:
        return 1 << 62
    return int(m.group(1)) << (10 * " kmgt".index(m.group(2) or " "))

def shrink(text, local, size):
    """The example at a small size: sizes down to size, no runtime, files local (a
    device named becomes a file of that size)."""
    out = []
    has_size = re.search(r"^\s*size\s*=", text, re.M) is not None
    for line in text.splitlines():
        s = line.split(";")[0].split("#")[0].rstrip()
        if DROP.match(s):
            continue
        m = re.match(r"^(\s*)(size|filesize|io_size)\s*=\s*(\S+)", s)
        if m and nbytes(m.group(3)) > size:
            line = "%s%s=%d" % (m.group(1), m.group(2), size)
        m = re.match(r"^(\s*)filename\s*=\s*(\S+)", s)
        if m:
            line = "%sfilename=%s" % (m.group(1), local.get(m.group(2), m.group(2)))
            if m.group(2).startswith("/dev/") and not has_size:
                line += "\n%ssize=%d" % (m.group(1), size)
        m = re.match(r"^(\s*)loops\s*=\s*(\d+)", s)
        if m:
            line = "%sloops=%d" % (m.group(1), min(int(m.group(2)), 4))
        m = re.match(r"^(\s*)nrfiles\s*=\s*(\d+)", s)
        if m:
            line = "%snrfiles=%d" % (m.group(1), min(int(m.group(2)), 64))
        m = re.match(r"^(\s*)numjobs\s*=\s*(\d+)", s)
        if m:
            line = "%snumjobs=%d" % (m.group(1), min(int(m.group(2)), 4))
        out.append(line)
    return "\n".join(out) + "\n"

# example -> (files it reads that must exist, names to give its devices, tolerance,
# size; 4 MiB unless given)
# tolerance: 0 = the same counts; else the I/O count within that fraction (sizes drawn
# at random), the bytes within it too, the read share within 3 points
RUNS = {
    "fio-seq-read.fio": ([], {}, 0), "fio-seq-write.fio": ([], {}, 0),
    "fio-rand-read.fio": ([], {}, 0), "fio-rand-write.fio": ([], {}, 0),
    "fio-rand-RW.fio": ([], {}, 0), "fio-seq-RW.fio": ([], {}, 0),
    "aio-read.fio": ([], {}, 0), "backwards-read.fio": ([], {}, 0),
    "rand-zones.fio": ([], {}, 0), "zipf.fio": ([], {}, 0),
    "tiobench-example.fio": ([], {}, 0),
    "ssd-test.fio": ([], {}, 0), "fsx.fio": ([], {}, 0), "null.fio": ([], {}, 0),
    # both with their default seed: 6874 (fio 3.33) and 6928 I/Os; over seeds 1..40
    # fio's count itself spreads 6556-7387 (cv 2.9%), ours 6609-7443 (cv 2.7%), means
    # 7005 and 7032 (bench/fio_seeds.sh): a change of either random stream may move
    # this one comparison past 2% without any change in behaviour
    "iometer-file-access-server.fio": ([], {}, 0.02, 32 << 20),
    "butterfly.fio": (["testfile"], {"/tmp/testfile": "testfile"}, 0),
    "jesd219.fio": ([], {"/dev/nvme0n1": "nvme0n1.dat"}, 0.08, 32 << 20),
    "basic-verify.fio": ([], {"/dev/XXX": "xxx.dat"}, 0),
    "filecreate-ioengine.fio": ([], {}, 0), "filestat-ioengine.fio": ([], {}, 0),
    "filedelete-ioengine.fio": ([], {}, 0), "dedupe-global.fio": ([], {}, 0),
    "latency-profile.fio": ([], {"/dev/sda": "sda.dat"}, 0),
    "falloc.fio": ([], {}, 0.08, 32 << 20), "ftruncate.fio": ([], {}, 0),
    "cmdprio-percentage.fio": ([], {"/dev/sda": "sda.dat"}, 0),
    "disk-zone-profile.fio": ([], {"/dev/sdb": "sdb.dat"}, 0),
}

def summary(js):
    out = {}
    for jb in js["jobs"]:
        r, w = jb["read"], jb["write"]
        k = jb["jobname"]
        a = out.setdefault(k, [0, 0, 0, 0])
        a[0] += r["total_ios"]; a[1] += w["total_ios"]
        a[2] += r["io_bytes"]; a[3] += w["io_bytes"]
    return out

def agree(a, b, tol):
    if tol == 0:
        return a[0] + a[1] == b[0] + b[1] and a[2] + a[3] == b[2] + b[3] and \
            (a == b or abs(a[0] - b[0]) <= 0.05 * (a[0] + a[1]) + 2)
    na, nb = a[0] + a[1], b[0] + b[1]
    ba, bb = a[2] + a[3], b[2] + b[3]
    if abs(na - nb) > tol * na or abs(ba - bb) > tol * ba:
        return False
    return abs(a[0] / max(na, 1) - b[0] / max(nb, 1)) <= 0.03

def real_one(f):
    """[fio's summary, iobattery's] or a failure message"""
    pre, local, tol = RUNS[f][:3]
    size = RUNS[f][3] if len(RUNS[f]) > 3 else SIZE
    job = shrink(open(os.path.join(EX, f)).read(), local, size)
    res = []
    for tool in ("fio", "iob"):
        d = os.path.join(TMP, f[:-4] + "." + tool)
        os.makedirs(d)
        for p in pre:
            with open(os.path.join(d, p), "wb") as fh:
                fh.write(os.urandom(size))
        open(os.path.join(d, "job.fio"), "w").write(job)
        if tool == "fio":
            cmd = ["fio", "--output-format=json", "job.fio"]
        else:
            cmd = [IOB, "job", "--no-store", "--quiet", "--format", "fio-json", "job.fio"]
        rc, out, err = run(cmd, cwd=d)
        if rc != 0:
            return "%s: %s exits %d: %s" % (f, tool, rc, err.strip()[-400:])
        try:
            res.append(summary(json.loads(out[out.index("{"):])))
        except (ValueError, KeyError) as e:
            return "%s: %s: no JSON (%s)" % (f, tool, e)
    return res

# not compared: cmdprio-bssplit.fio (randrw of 64k and 1M blocks through the random map):
# fio itself moves from 3.3 to 34 MB of a 32 MiB file by its seed (fio --randseed=1..5)

# the set make check runs (IOB_FIO_EXAMPLES=all: every one in RUNS)
QUICK = {"fio-rand-RW.fio", "fio-seq-RW.fio", "aio-read.fio", "backwards-read.fio",
         "rand-zones.fio", "tiobench-example.fio", "fsx.fio", "iometer-file-access-server.fio",
         "butterfly.fio", "basic-verify.fio", "zipf.fio", "filestat-ioengine.fio",
         "filecreate-ioengine.fio", "filedelete-ioengine.fio",
         "cmdprio-percentage.fio", "disk-zone-profile.fio"}

# issue requests in the real-time class (cmdprio_class=1), which needs the privilege
NEEDS_ROOT = {"cmdprio-percentage.fio"}

def real_runs(failures):
    names = sorted(f for f in RUNS if os.path.exists(os.path.join(EX, f)) and
                   (f in QUICK or os.environ.get("IOB_FIO_EXAMPLES") == "all") and
                   (f not in NEEDS_ROOT or os.geteuid() == 0))
    done = 0
    # only the counts are compared, so the examples may run side by side
    with concurrent.futures.ThreadPoolExecutor(3) as ex:
        results = list(ex.map(real_one, names))
    for f, res in zip(names, results):
        if isinstance(res, str):
            failures.append(res)
            continue
        tol = RUNS[f][2]
        for k in res[0]:
            if k not in res[1] or not agree(res[0][k], res[1][k], tol):
                failures.append("%s [%s]: fio r/w ios, r/w bytes %s, iobattery %s" %
                                (f, k, res[0][k], res[1].get(k)))
        done += 1
    print("run: %d examples through both (4 MiB, 32 MiB with block sizes drawn)" % done)

def main():
    failures = []
    parse_only(failures)
    real_runs(failures)
    for m in failures:
        print("FAIL: " + m, file=sys.stderr)
    return 1 if failures else 0

sys.exit(main())
