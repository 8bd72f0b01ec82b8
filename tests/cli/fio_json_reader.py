#!/usr/bin/env python3
"""fio_json_reader.py FILE.json - read a fio --output-format=json document the way fio
tooling does (fio-plot's import: the job options with the global ones under them,
jobs[].read/write iops, bw, lat_ns and clat_ns with its percentile map, usr_cpu and
sys_cpu, disk_util) and check what such a reader relies on. Prints one line per job
and direction; exits 1 with the reason when a key is missing or a figure is
inconsistent. Used by tests/cli/job_fio_json.sh on iobattery's --format fio-json and,
when fio is installed, on fio's own output of the same job."""
import json
import sys


def need(obj, key, where):
    if key not in obj:
        raise SystemExit("missing %s in %s" % (key, where))
    return obj[key]


def main():
    doc = json.load(open(sys.argv[1]))
    need(doc, "fio version", "top level")
    need(doc, "timestamp_ms", "top level")
    glob = doc.get("global options", {})
    for job in need(doc, "jobs", "top level"):
        name = need(job, "jobname", "job")
        opts = dict(glob)
        opts.update(need(job, "job options", name))
        for key in ("groupid", "usr_cpu", "sys_cpu", "ctx", "iodepth_level", "latency_ms"):
            need(job, key, name)
        for ddir in ("read", "write", "trim"):
            d = need(job, ddir, name)
            ios = need(d, "total_ios", ddir)
            if not ios:
                continue
            runtime = need(d, "runtime", ddir)
            iops, bw = need(d, "iops", ddir), need(d, "bw", ddir)
            kb = need(d, "io_kbytes", ddir)
            if need(d, "io_bytes", ddir) // 1024 != kb:
                raise SystemExit("%s %s: io_kbytes %d is not io_bytes / 1024" % (name, ddir, kb))
            # runtime is whole milliseconds: allow its rounding
            if runtime and not (ios / (runtime + 1) * 1000 * 0.99 <= iops <=
                                ios / max(runtime, 1) * 1000 * 1.01 + 1):
                raise SystemExit("%s %s: iops %g, %d ios in %d ms" % (name, ddir, iops, ios, runtime))
            if runtime and not (kb / (runtime + 1) * 1000 * 0.99 <= bw <=
                                kb / max(runtime, 1) * 1000 * 1.01 + 1):
                raise SystemExit("%s %s: bw %g KiB/s, %d KiB in %d ms" % (name, ddir, bw, kb, runtime))
            lat = need(d, "lat_ns", ddir)
            clat = need(d, "clat_ns", ddir)
            for o in (lat, clat, need(d, "slat_ns", ddir)):
                for key in ("min", "max", "mean", "stddev", "N"):
                    need(o, key, ddir)
            pct = need(clat, "percentile", ddir + " clat_ns")
            p99 = need(pct, "99.000000", ddir + " clat_ns.percentile")
            vals = [pct[k] for k in sorted(pct, key=float)]
            if vals != sorted(vals) or not clat["min"] <= p99 <= clat["max"] * 1.01:
                raise SystemExit("%s %s: percentiles out of order or range" % (name, ddir))
            if clat["N"] != ios:
                raise SystemExit("%s %s: clat N %d for %d ios" % (name, ddir, clat["N"], ios))
            print("%s %s rw=%s bs=%s iodepth=%s numjobs=%s iops=%.0f bw=%d lat_mean=%.0f p99=%d"
                  % (name, ddir, opts.get("rw", "read"), opts.get("bs", "4k"),
                     opts.get("iodepth", "1"), opts.get("numjobs", "1"), iops, bw,
                     lat["mean"], p99))
    for disk in need(doc, "disk_util", "top level"):
        for key in ("name", "read_ios", "write_ios", "util"):
            need(disk, key, "disk_util")
    return 0


if __name__ == "__main__":
    sys.exit(main())
