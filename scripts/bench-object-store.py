#!/usr/bin/env python3
"""PutFile and GetFile of a large file through a host whose content is in S3 (issue 45, Docs/object-storage.md),
side by side with the same bytes put and got with the gateway directly (boto3 from Debian, its default transfer:
8 MiB multipart parts, 10 threads), in the same run, on a throw-away Ceph cluster (scripts/ceph-cluster.sh: one
memstore OSD, RADOS Gateway). The host is scripts/cluster.sh with one `wopi-host serve --database … --object-store
…` on PostgreSQL 15. Also measured: the host's peak resident memory (VmHWM) after a small file and after the large
one (memory must not grow with the file), the PostgreSQL database's size after the import (`pg_database_size` after
`VACUUM`: the bytes are in the bucket), and the bucket's objects.

    scripts/bench-object-store.py [--bin DIR] [--size-mib N]   release build, 1024 MiB
    scripts/bench-object-store.py --smoke                      the debug build, 64 MiB (checks it works)
"""
import argparse
import datetime
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402  (the suite's helpers: servers, the cluster, PutFile)

GOAL = 0.7  # issue 45: PutFile and GetFile through the host at 0.7x the direct figure or better
BOTO = "/usr/bin/python3"  # Debian's, with python3-boto3
NAME = "Large.bin"


class ObjectStoreCluster(bench.Cluster):
    """scripts/cluster.sh with the hosts' content in `object_store`."""

    def __init__(self, bin_dir, workdir, hosts, object_store):  # noqa: super-init-not-called (its command differs)
        self.bin = os.path.join(bin_dir, "wopi-host")
        self.object_store = object_store
        bench.Server.__init__(
            self, "PostgreSQL cluster on S3 (scripts/cluster.sh --object-store)",
            [os.path.join(bench.ROOT, "scripts", "cluster.sh"), "--hosts", str(hosts), "--bin", bin_dir,
             "--front-port", str(bench.free_port()), "--log-level", "warning", "--object-store", object_store],
            env=dict(os.environ, TMPDIR=workdir))

    def wait_listening(self, timeout=300):
        url = super().wait_listening(timeout)
        self.token_args += ["--object-store", self.object_store]
        return url


def peak_rss(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    raise bench.BenchFailure(f"no VmHWM for pid {pid}")


def make_file(path, size):
    """`size` random bytes (incompressible, and no zip: one content chunk) and their SHA-256."""
    digest = hashlib.sha256()
    with open(path, "wb") as f:
        left = size
        while left:
            block = os.urandom(min(left, 8 << 20))
            digest.update(block)
            f.write(block)
            left -= len(block)
    return digest.hexdigest()


def sha256_of(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(8 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


DIRECT = r"""
import boto3, json, os, sys, time
from botocore.config import Config
source, target, bucket = sys.argv[1:4]
s3 = boto3.client("s3", endpoint_url=os.environ["S3_ENDPOINT"], region_name=os.environ.get("S3_REGION", "us-east-1"),
                  aws_access_key_id=os.environ["AWS_ACCESS_KEY_ID"],
                  aws_secret_access_key=os.environ["AWS_SECRET_ACCESS_KEY"],
                  config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1}))
s3.create_bucket(Bucket=bucket)
start = time.monotonic(); s3.upload_file(source, bucket, "direct"); put = time.monotonic() - start
start = time.monotonic(); s3.download_file(bucket, "direct", target); get = time.monotonic() - start
s3.delete_object(Bucket=bucket, Key="direct")
print(json.dumps({"put": put, "get": get}))
"""

LIST = r"""
import boto3, json, os, sys
from botocore.config import Config
s3 = boto3.client("s3", endpoint_url=os.environ["S3_ENDPOINT"], region_name=os.environ.get("S3_REGION", "us-east-1"),
                  aws_access_key_id=os.environ["AWS_ACCESS_KEY_ID"],
                  aws_secret_access_key=os.environ["AWS_SECRET_ACCESS_KEY"],
                  config=Config(s3={"addressing_style": "path"}))
objects = [o for page in s3.get_paginator("list_objects_v2").paginate(Bucket=sys.argv[1]) for o in page.get("Contents", [])]
print(json.dumps({"count": len(objects), "bytes": sum(o["Size"] for o in objects)}))
"""


def timed_put(token, path):
    start = time.monotonic()
    bench.office_put_file(token["wopiSrc"], token["accessToken"], path)
    return time.monotonic() - start


def timed_get(token, target):
    start = time.monotonic()
    bench.office_get_file(token["wopiSrc"], token["accessToken"], target)
    return time.monotonic() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--smoke", action="store_true", help="64 MiB on the debug build")
    parser.add_argument("--bin", help="directory of the built executables (default: swift build --show-bin-path)")
    parser.add_argument("--size-mib", type=int, help="the large file (default 1024, smoke 64)")
    options = parser.parse_args()
    size = (options.size_mib or (64 if options.smoke else 1024)) << 20
    configuration = "debug" if options.smoke else "release"
    bin_dir = options.bin or bench.run(["swift", "build", "-c", configuration, "--show-bin-path"],
                                       cwd=bench.ROOT).strip()
    if subprocess.run([BOTO, "-c", "import boto3"], capture_output=True).returncode != 0:
        raise bench.BenchFailure("python3-boto3 is missing; run scripts/install-deps.sh --test")
    workdir = tempfile.mkdtemp(prefix="wopikit-bench-s3-")
    os.chmod(workdir, 0o755)  # PostgreSQL may run as another user
    ceph_dir = os.path.join(workdir, "ceph")
    script = os.path.join(bench.ROOT, "scripts", "ceph-cluster.sh")
    loads = [bench.load_average()]
    cluster = None
    try:
        env_file = bench.run([script, "start", ceph_dir]).strip().splitlines()[-1]
        s3_env = dict(line.split("=", 1) for line in open(env_file).read().splitlines() if "=" in line)
        s3_env = {key: value.strip().strip('"').strip("'") for key, value in s3_env.items()}
        boto_env = dict(os.environ, **s3_env)
        source = os.path.join(workdir, "source.bin")
        sha256 = make_file(source, size)
        small = os.path.join(workdir, "small.bin")
        make_file(small, 4 << 20)
        back = os.path.join(workdir, "back.bin")

        direct = json.loads(bench.run([BOTO, "-c", DIRECT, source, back, "bench-direct"], env=boto_env))
        if sha256_of(back) != sha256:
            raise bench.BenchFailure("boto3 got other bytes back")
        os.remove(back)

        object_store = (f"s3://bench-host?endpoint={s3_env['S3_ENDPOINT']}&region={s3_env.get('S3_REGION', 'us-east-1')}"
                        f"&addressing=path&credentials-file={env_file}")
        cluster = ObjectStoreCluster(bin_dir, workdir, 1, object_store)
        cluster.wait_listening()
        host_pid = cluster.hosts[0].pids()[0]
        bench.run([cluster.bin, "import", *cluster.token_args, "--user", "demo", small, NAME])
        token = json.loads(bench.run([cluster.bin, "token", *cluster.token_args, "--user", "demo", "--file", NAME]))
        token["wopiSrc"] = token["wopiSrc"].replace(cluster.url, cluster.hosts[0].url)
        timed_put(token, small)
        timed_get(token, back)
        small_peak = peak_rss(host_pid)
        put = timed_put(token, source)
        get = timed_get(token, back)
        if sha256_of(back) != sha256:
            raise bench.BenchFailure("the host gave other bytes back")
        large_peak = peak_rss(host_pid)
        psql = os.path.join(bench.PG_BIN, "psql")
        bench.run([psql, cluster.database, "-qc", "VACUUM"])
        database = int(bench.run([psql, cluster.database, "-Atc",
                                  "SELECT pg_database_size(current_database())"]).strip())
        bucket = json.loads(bench.run([BOTO, "-c", LIST, "bench-host"], env=boto_env))
    finally:
        if cluster:
            cluster.stop()
        subprocess.run([script, "stop", ceph_dir], capture_output=True)
        shutil.rmtree(workdir, ignore_errors=True)
    loads.append(bench.load_average())
    mib = size / 1048576
    rows = [["PutFile", f"{mib / direct['put']:.0f} MiB/s", f"{mib / put:.0f} MiB/s", f"{direct['put'] / put:.2f}x"],
            ["GetFile", f"{mib / direct['get']:.0f} MiB/s", f"{mib / get:.0f} MiB/s", f"{direct['get'] / get:.2f}x"]]
    print("\n" + "\n".join([
        f"### {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, {bench.build_kind(bin_dir)} build, "
        "object storage", "", f"Machine: {bench.machine()}. Load average (1 min) at the start and the end: "
        f"{', '.join(loads)}. Command: scripts/bench-object-store.py --bin {bin_dir}"
        f"{'' if size == 1 << 30 else f' --size-mib {size >> 20}'}.", "",
        f"A {mib:.0f} MiB file of random bytes, through one host on PostgreSQL with its content on Ceph 16's RADOS "
        "Gateway (one memstore OSD), against boto3 with the gateway directly (goal: the host at 0.7x or better):", "",
        bench.table(["", "boto3 direct", "through the host", "host / direct"], rows), "",
        f"Host peak RSS (VmHWM): {small_peak / 1048576:.0f} MiB after 4 MiB files, {large_peak / 1048576:.0f} MiB "
        f"after the {mib:.0f} MiB one. PostgreSQL database after it: {database / 1048576:.1f} MiB. Bucket: "
        f"{bucket['count']} objects, {bucket['bytes'] / 1048576:.0f} MiB."]), flush=True)
    worst = min(direct["put"] / put, direct["get"] / get)
    if not options.smoke and worst < GOAL:
        print(f"bench-object-store: below the goal ({worst:.2f}x < {GOAL}x)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
