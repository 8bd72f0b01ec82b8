#!/usr/bin/env python3
"""job_rows.py RESULT.json - the job workload's rows of an iobattery result (--format
json), one line each, for the shell tests:
    job NAME PHASE ops=N bytes=N elapsed_ns=N flags=a,b
    aggregate STEP threads=N bytes=N ops=N first_done_bytes=N
    disk DEVICE read_bytes=N write_bytes=N read_ios=N write_ios=N
"""
import json
import sys


def metric(row, name):
    for m in row.get("metrics") or []:
        if m["name"] == name:
            return m["value"]
    return 0


def main():
    doc = json.load(open(sys.argv[1]))
    for r in doc["rows"]:
        if r["workload"] != "job":
            continue
        p = r.get("params") or {}
        flags = ",".join(r.get("flags") or []) or "-"
        if r["phase"] == "aggregate":
            print("aggregate %s threads=%d bytes=%d ops=%d first_done_bytes=%d" % (
                p.get("step"), metric(r, "step_threads"), r["bytes"], r["ops"],
                metric(r, "first_done_bytes")))
        elif r["phase"] == "disk":
            print("disk %s read_bytes=%d write_bytes=%d read_ios=%d write_ios=%d" % (
                p.get("device"), metric(r, "device_read_bytes"),
                metric(r, "device_write_bytes"), metric(r, "read_ios"),
                metric(r, "write_ios")))
        else:
            print("job %s %s ops=%d bytes=%d elapsed_ns=%d flags=%s" % (
                p.get("job"), r["phase"], r["ops"], r["bytes"], r["elapsed_ns"], flags))
    return 0


if __name__ == "__main__":
    sys.exit(main())
