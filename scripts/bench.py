#!/usr/bin/env python3
"""The benchmark suite of WOPIKit (`make bench`, `make bench-smoke`); see Docs/benchmarks.md.

Side by side, in one run on 127.0.0.1: the Hummingbird hello-world ceiling (`wopikit-hello`), Debian's nginx
serving the same bodies, `wopi-host serve` on SQLite and on the file system, and a PostgreSQL cluster of 3 hosts
behind nginx (scripts/cluster.sh), measured on one host directly and through the front. Requests are driven by
wrk at 16 connections (Benchmarks/wrk/wopi.lua); file bodies by `wopikit-bench`, which also reads the hosts' peak
RSS. GetFile's throughput is also read by wrk, which discards the body (`wopikit-bench` checks every page it
reads, which caps what it can measure), and PutFile's is also measured with the body sent by sendfile(2) from the page
cache, beside dd (`sendfile_puts`: `wopikit-bench` generates the body on the same CPUs as the host).

    scripts/bench.py                 release build, full figures, table prepended to Docs/benchmarks.md
    scripts/bench.py --no-doc --scenario CheckFileInfo --no-cluster --no-transfers --no-instrumentation \
                     --host-binary OLD/wopi-host
                                     a subset, for comparing two builds in alternating runs
    scripts/bench.py --smoke         the debug build `make test` made, a second per scenario, small bodies:
                                     checks that every scenario works (exit status), not its figures
    scripts/bench.py --instrumentation-only
                                     only what metrics and tracing cost a CheckFileInfo (see `instrumentation`)
    scripts/bench.py --office-only   only issue 25's Office documents through incremental transfer (bytes at the
                                     socket; see `office_documents`)
    scripts/bench.py --incremental-only
                                     only incremental transfer (CSPP Plus, see `measure_incremental`)
"""
import argparse
import base64
import datetime
import hashlib
import http.client
import json
import os
import platform
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "Docs", "benchmarks.md")
MARKER = "<!-- bench.py inserts each run below this line, newest first -->"
HISTORY = os.path.join(ROOT, "Docs", "benchmark-history.md")
HISTORY_MARKER = "<!-- bench.py moves older runs below this line, newest first -->"
CONNECTIONS = 16
LOCK_FILES = CONNECTIONS
PG_BIN = "/usr/lib/postgresql/15/bin"
CLUSTER_HOSTS = 3
SERVERS = ("hello-world", "nginx", "wopi-host sqlite", "wopi-host fs", "wopi-host postgres",
           f"wopi-host postgres ×{CLUSTER_HOSTS}")
# The SQLite hosts of the instrumentation comparison, differing only in what they record: the same CheckFileInfo
# on each, in alternating rounds (see `instrumentation`).
INSTRUMENTED = (
    ("off", [], {}),
    ("metrics", ["--metrics-listen", "127.0.0.1:0"], {}),
    ("metrics+traces", ["--metrics-listen", "127.0.0.1:0"], {"OTEL_TRACES_EXPORTER": "otlp"}),
)
INSTRUMENTATION_ROUNDS = 6
# CheckFileInfo at one offered load for every server: each of the CONNECTIONS waits PACE_MS after an answer before
# its next request (16 at 8 ms: at most 2,000 requests a second, below what each server answers, one PostgreSQL
# host included). At full load, a faster server batches more reads, writes and wake-ups per system call, so its CPU
# per request falls further than a slower one's; at one offered load, the difference between two servers is closer
# to what the slower one's own code costs.
PACE_MS = 8
INCREMENTAL_MIB = 10  # the zip of the incremental-transfer scenario (smoke: 1 MiB)


class BenchFailure(Exception):
    pass


def run(args, **kwargs):
    return subprocess.run(args, check=True, text=True, capture_output=True, **kwargs).stdout


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pids, with_children=False):
    """utime + stime of processes, in seconds, from /proc/PID/stat; with_children adds the CPU of their children
    that have exited (cutime + cstime)."""
    total = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
        if with_children:
            total += int(fields[13]) + int(fields[14])
    return total / os.sysconf("SC_CLK_TCK")


def children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []


class Server:
    """A child process that prints `listening on URL`."""

    def __init__(self, name, args, env=None):
        self.name = name
        self.log = tempfile.TemporaryFile(mode="w+")
        self.process = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT, env=env, text=True)
        self.url = None

    def wait_listening(self, timeout=120):
        deadline = time.time() + timeout
        while time.time() < deadline:
            self.log.seek(0)
            match = re.search(r"^listening on (\S+)$", self.log.read(), re.M)
            if match:
                self.url = match.group(1)
                return self.url
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        self.log.seek(0)
        raise BenchFailure(f"{self.name} did not start:\n{self.log.read()}")

    def pids(self):
        return [self.process.pid]

    def report_if_exited(self):
        """Prints the exit status and the end of the log of a server that exited by itself (a crash)."""
        status = self.process.poll()
        if status is None or getattr(self, "stopped", False):
            return
        self.log.seek(0)
        print(f"bench: {self.name} exited by itself with status {status}; the end of its log:\n"
              f"{self.log.read()[-6000:]}", file=sys.stderr)

    def stop(self):
        self.report_if_exited()
        self.stopped = True
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class Nginx(Server):
    """Debian's nginx with a generated configuration serving `root` on a loopback port."""

    def __init__(self, root, workdir):
        port = free_port()
        conf = os.path.join(workdir, "nginx.conf")
        with open(conf, "w") as f:
            f.write(f"""daemon off;
worker_processes auto;
pid {workdir}/nginx.pid;
error_log {workdir}/nginx-error.log warn;
events {{ worker_connections 1024; }}
http {{
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  client_body_temp_path {workdir}/nginx-body;
  proxy_temp_path {workdir}/nginx-proxy;
  fastcgi_temp_path {workdir}/nginx-fastcgi;
  uwsgi_temp_path {workdir}/nginx-uwsgi;
  scgi_temp_path {workdir}/nginx-scgi;
  default_type application/octet-stream;
  types {{ application/json json; }}
  server {{
    listen 127.0.0.1:{port}; root {root};
    # A trace sink for the hosts that export spans: an empty ExportTraceServiceResponse to every OTLP/HTTP export.
    location = /v1/traces {{ default_type application/x-protobuf; return 200 ""; }}
  }}
}}
""")
        super().__init__("nginx", ["nginx", "-c", conf, "-p", workdir, "-e", f"{workdir}/nginx-error.log"])
        self.port = port

    def wait_listening(self, timeout=30):
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                self.url = f"http://127.0.0.1:{self.port}"
                return self.url
            except OSError:
                if self.process.poll() is not None:
                    break
                time.sleep(0.05)
        self.log.seek(0)
        raise BenchFailure(f"nginx did not start:\n{self.log.read()}")

    def pids(self):
        return [self.process.pid] + children(self.process.pid)


def request_path(url):
    """The path and query of `url`: what wrk requests."""
    parts = urllib.parse.urlsplit(url)
    return parts.path + "?" + parts.query


class Endpoint:
    """What wrk drives: a URL, and the processes whose CPU the requests cost."""

    def __init__(self, name, url, pids, database_cpu=None):
        self.name, self.url, self._pids = name, url, pids
        self.database_cpu = database_cpu  # a function: the CPU seconds PostgreSQL has used so far

    def pids(self):
        return self._pids


class Scenarios:
    """The objects the scenarios use, made through a WOPI host's HTTP API; needs `bin` and `token_args`."""

    def token(self, file):
        out = json.loads(run([self.bin, "token"] + self.token_args + ["--user", "demo", "--file", file]))
        return out["wopiSrc"], out["accessToken"]

    def request(self, method, url, headers=None, expect=200):
        parts = urllib.parse.urlsplit(url)
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
        try:
            connection.request(method, parts.path + "?" + parts.query, body=b"" if method == "POST" else None,
                               headers=headers or {})
            response = connection.getresponse()
            body = response.read()
        finally:
            connection.close()
        if response.status != expect:
            raise BenchFailure(f"{method} {parts.path} answered {response.status}: {body[:300]!r}")
        return body

    def root(self, src=None, token=None):
        """The URL of the demo user's root container, from the ancestry of Notes.txt (`src`, `token`: its WOPI URL
        and a token, when the caller has them); looked up once."""
        if getattr(self, "root_url", None) is None:
            if src is None:
                src, token = self.token("Notes.txt")
            ancestry = json.loads(self.request("GET", f"{src}/ancestry?access_token={token}"))
            self.root_url = ancestry["AncestorsWithRootFirst"][0]["Url"]
        return self.root_url

    def create_file(self, name):
        """Creates the empty file `name` in the root container; returns its URL, with an access token."""
        return json.loads(self.request("POST", self.root(), {"X-WOPI-Override": "CREATE_CHILD_FILE",
                                                             "X-WOPI-SuggestedTarget": name}))["Url"]

    def prepare(self, children_count):
        """Creates what the scenarios need; returns the request paths of each."""
        src, token = self.token("Notes.txt")
        file_url = f"{src}?access_token={token}"
        info = self.request("GET", file_url)
        root_url = self.root(src, token)
        folder = json.loads(self.request("POST", root_url, {"X-WOPI-Override": "CREATE_CHILD_CONTAINER",
                                                            "X-WOPI-SuggestedTarget": "Bench"}))
        folder_url = folder["ContainerPointer"]["Url"]
        parts = urllib.parse.urlsplit(folder_url)
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
        for i in range(children_count):
            connection.request("POST", parts.path + "?" + parts.query, body=b"",
                               headers={"X-WOPI-Override": "CREATE_CHILD_FILE",
                                        "X-WOPI-RelativeTarget": f"file-{i:04}.docx"})
            response = connection.getresponse()
            body = response.read()
            if response.status != 200:
                raise BenchFailure(f"CreateChildFile {i} answered {response.status}: {body[:300]!r}")
        connection.close()
        children_url = f"{parts.scheme}://{parts.netloc}{parts.path}/children?{parts.query}"
        listing = json.loads(self.request("GET", children_url))
        if len(listing["ChildFiles"]) != children_count:
            raise BenchFailure(f"EnumerateChildren listed {len(listing['ChildFiles'])} of {children_count} files")
        return info, {
            "CheckFileInfo": ([request_path(file_url)], ""),
            **self.lock_scenarios("lock"),
            f"EnumerateChildren ({children_count})": ([request_path(children_url)], ""),
        }

    def upload(self, name, source):
        """Creates `name` in the root container with the content of the file `source`; returns its GetFile path."""
        parts = urllib.parse.urlsplit(self.create_file(name))
        contents = f"{parts.path}/contents?{parts.query}"
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=600)
        try:
            with open(source, "rb") as body:
                connection.request("POST", contents, body=body, headers={
                    "X-WOPI-Override": "PUT", "Content-Length": str(os.path.getsize(source))})
            response = connection.getresponse()
            answer = response.read()
        finally:
            connection.close()
        if response.status != 200:
            raise BenchFailure(f"PutFile of {name} answered {response.status}: {answer[:300]!r}")
        return contents

    def lock_scenarios(self, prefix):
        """GetLock and the Lock cycle on LOCK_FILES new files named PREFIX-N.txt, one per connection."""
        paths = [request_path(self.create_file(f"{prefix}-{i}.txt")) for i in range(LOCK_FILES)]
        return {"GetLock": (paths, "GET_LOCK"), "Lock→Refresh→Unlock": (paths, "LOCK,REFRESH_LOCK,UNLOCK")}


class Host(Server, Scenarios):
    """`wopi-host serve` on a fresh data directory."""

    def __init__(self, bin_dir, storage, workdir, label=None, extra=(), env=None, binary=None):
        self.bin = binary or os.path.join(bin_dir, "wopi-host")
        label = label or storage
        self.data = os.path.join(workdir, f"data-{label}")
        super().__init__(
            f"wopi-host ({label})",
            [self.bin, "serve", "--demo", "--data", self.data, "--storage", storage, "--port", "0", "--log-level",
             "warning", *extra], env=dict(os.environ, **env) if env else None)
        self.storage = storage
        self.token_args = ["--data", self.data]


class Cluster(Server, Scenarios):
    """scripts/cluster.sh: PostgreSQL 15, `hosts` wopi-host processes on it, nginx in front on a free port."""

    def __init__(self, bin_dir, workdir, hosts):
        self.bin = os.path.join(bin_dir, "wopi-host")
        super().__init__(
            "PostgreSQL cluster (scripts/cluster.sh)",
            [os.path.join(ROOT, "scripts", "cluster.sh"), "--hosts", str(hosts), "--bin", bin_dir, "--front-port",
             str(free_port()), "--log-level", "warning"], env=dict(os.environ, TMPDIR=workdir))

    def wait_listening(self, timeout=300):
        super().wait_listening(timeout)
        self.log.seek(0)
        printed = self.log.read()
        self.hosts = [Endpoint(f"host {index}", url, [int(pid)]) for index, url, pid, _ in
                      re.findall(r"^host (\d+): (http://\S+) \(pid (\d+), log \S+, data (\S+)\)$", printed, re.M)]
        data = re.search(r"^host 1: .*, data (\S+)\)$", printed, re.M).group(1)
        self.database = re.search(r"^database: (\S+)$", printed, re.M).group(1)
        self.token_args = ["--data", data, "--database", self.database]
        self.postmaster_pid_file = os.path.join(os.path.dirname(data), "pg", "postmaster.pid")
        return self.url

    def prepare(self, children_count):
        """As Scenarios.prepare, plus `front`: the same scenarios with lock files of their own for the runs through
        nginx. A Lock cycle cut off at the end of the direct run may still commit its last request after the next
        run has begun, so the two never share a file."""
        prepared = super().prepare(children_count)
        self.front = dict(prepared[1], **self.lock_scenarios("front-lock"))
        # Settle what the set-up wrote, so that autovacuum does not run it down during the first scenarios.
        run([os.path.join(PG_BIN, "psql"), self.database, "-qc", "VACUUM ANALYZE"])
        return prepared

    def database_cpu(self):
        """CPU seconds of the PostgreSQL server so far: the postmaster with its exited children (autovacuum
        workers come and go), and its live children (a backend per pooled connection of each host)."""
        with open(self.postmaster_pid_file) as f:
            postmaster = int(f.readline())
        total = cpu_seconds([postmaster], with_children=True)
        for child in children(postmaster):
            try:
                total += cpu_seconds([child])
            except OSError:
                pass  # exited since: its time is in the postmaster's cutime once reaped
        return total


def wrk(server, paths, ops, seconds, workdir, delay_ms=None):
    """Runs wrk against `server`; returns req/s, p99 ms, host CPU µs per request and the request count.

    With `delay_ms`, each connection waits that long after an answer before its next request (see PACE_MS)."""
    paths_file = os.path.join(workdir, "wrk-paths.txt")
    with open(paths_file, "w") as f:
        f.write("\n".join(paths) + "\n")
    env = dict(os.environ, WOPI_PATHS=paths_file, WOPI_OPS=ops)
    if delay_ms is not None:
        env["WOPI_DELAY_MS"] = str(delay_ms)
    script = os.path.join(ROOT, "Benchmarks", "wrk", "wopi.lua")
    pids = server.pids()
    database_cpu = getattr(server, "database_cpu", None) or (lambda: 0)
    before, database_before = cpu_seconds(pids), database_cpu()
    completed = subprocess.run(["wrk", "-t", str(CONNECTIONS), "-c", str(CONNECTIONS), "-d", f"{seconds}s",
                                "--latency", "--timeout", "30s", "-s", script, server.url], env=env, text=True,
                               capture_output=True)
    out = completed.stdout + completed.stderr
    cpu = cpu_seconds(pids) - before
    database_used = database_cpu() - database_before
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = re.search(r"Socket errors: (.*)", out)
    if requests == 0 or bad or errors:
        raise BenchFailure(f"wrk on {server.name} {ops or 'GET'} {paths[0][:60]}: failures\n{out}")
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    value, unit = re.search(r"\s99%\s+([\d.]+)(us|ms|s)\b", out).groups()
    p99 = float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]
    return {"rps": rate, "p99": p99, "cpu_us": cpu * 1e6 / requests, "requests": requests,
            "database_cpu_us": database_used * 1e6 / requests if getattr(server, "database_cpu", None) else None}


def wrk_get(server, path, seconds, connections=4):
    """Runs wrk GETs of one large body (discarded) against `server`; returns MiB/s and host CPU µs per MiB."""
    pids = server.pids()
    before = cpu_seconds(pids)
    completed = subprocess.run(["wrk", "-t", "2", "-c", str(connections), "-d", f"{seconds}s", "--timeout", "30s",
                                server.url + path], text=True, capture_output=True)
    out = completed.stdout + completed.stderr
    cpu = cpu_seconds(pids) - before
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    if requests == 0 or re.search(r"Non-2xx or 3xx responses|Socket errors", out):
        raise BenchFailure(f"wrk GET on {server.name} {path[:60]}: failures\n{out}")
    value, unit = re.search(r"Transfer/sec:\s+([\d.]+)(B|KB|MB|GB)", out).groups()
    mib_per_second = float(value) * {"B": 1, "KB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30}[unit] / (1 << 20)
    transferred = mib_per_second * seconds
    return {"MiBps": mib_per_second, "cpu_us_per_mib": cpu * 1e6 / transferred if transferred else 0}


SENDFILE_ROUNDS = 3


def sendfile_put(host, name, source, sha256):
    """A PutFile of the file `source` into a new file `name` on `host`, its body sent by sendfile(2) from the page
    cache.

    The client costs next to nothing (as dd's reads), so the host's own speed shows. The file is new (empty, so
    unlocked), so that no earlier round's content is being freed meanwhile. The content is then checked by
    CheckFileInfo's Size and SHA256 (`sha256`: of `source`, base64). Returns MiB/s and host CPU µs per MiB."""
    url = host.create_file(name)
    parts = urllib.parse.urlsplit(url)
    size = os.path.getsize(source)
    head = (f"POST {parts.path}/contents?{parts.query} HTTP/1.1\r\nHost: {parts.netloc}\r\n"
            f"X-WOPI-Override: PUT\r\nContent-Length: {size}\r\nConnection: close\r\n\r\n").encode()
    before = cpu_seconds(host.pids())
    start = time.time()
    with socket.create_connection((parts.hostname, parts.port), timeout=600) as connection, open(source, "rb") as f:
        connection.sendall(head)
        connection.sendfile(f, 0, size)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    seconds = time.time() - start
    cpu = cpu_seconds(host.pids()) - before
    if not answer.startswith(b"HTTP/1.1 200"):
        raise BenchFailure(f"sendfile PutFile on {host.name} answered {answer[:300]!r}")
    info = json.loads(host.request("GET", url))
    if info["Size"] != size or info["SHA256"] != sha256:
        raise BenchFailure(f"sendfile PutFile on {host.name}: stored {info['Size']} bytes, SHA256 {info['SHA256']}; "
                           f"sent {size}, {sha256}")
    return {"MiBps": size / 1048576 / seconds, "cpu_us_per_mib": cpu * 1e6 / (size / 1048576)}


def sendfile_puts(bin_dir, host_binary, source, workdir):
    """`SENDFILE_ROUNDS` sendfile PutFiles of `source` on a fresh SQLite and fs host, alternating with dd's copy of
    it; returns {name: [figures per round]}. Nothing written is removed before the end, as nothing is being freed
    while another writer is measured."""
    with open(source, "rb") as f:
        sha256 = base64.b64encode(hashlib.file_digest(f, "sha256").digest()).decode()
    hosts = [Host(bin_dir, storage, workdir, label=f"sendfile-{storage}", binary=host_binary)
             for storage in ("sqlite", "fs")]
    copies = [os.path.join(workdir, f"dd-{round}.out") for round in range(SENDFILE_ROUNDS)]
    rounds = {"dd": []}
    try:
        for host in hosts:
            host.wait_listening()
        for round, copy in enumerate(copies):
            rounds["dd"].append({"MiBps": dd(source, copy, remove=False), "cpu_us_per_mib": None})
            for host in hosts:
                rounds.setdefault(f"wopi-host {host.storage}", []).append(
                    sendfile_put(host, f"sendfile-{round}.bin", source, sha256))
    finally:
        for host in hosts:
            host.stop()
            shutil.rmtree(host.data, ignore_errors=True)
        for copy in copies:
            if os.path.exists(copy):
                os.remove(copy)
    return rounds


def sendfile_report(rounds, size):
    """The table of `sendfile_puts`: the median of each, × dd's median, and every round."""
    def median(values):
        return sorted(values)[len(values) // 2]
    dd_median = median([r["MiBps"] for r in rounds["dd"]])
    rows = []
    for name, figures in rounds.items():
        rate = median([r["MiBps"] for r in figures])
        cpu = [r["cpu_us_per_mib"] for r in figures if r["cpu_us_per_mib"] is not None]
        rows.append([name, f"{size} MiB", f"{rate:.0f}", f"{rate / dd_median:.2f}×",
                     f"{median(cpu):.0f}" if cpu else "", ", ".join(f"{r['MiBps']:.0f}" for r in figures)])
    return "\n".join([
        f"PutFile with its body sent by sendfile(2) from the page cache (the client costs next to nothing, as dd's "
        f"reads do; the content checked by CheckFileInfo's Size and SHA256), and dd, in {len(rounds['dd'])} "
        "alternating rounds; medians:",
        "",
        table(["writer", "size", "PutFile MiB/s (sendfile)", "× dd", "host CPU µs/MiB", "MiB/s by round"], rows),
    ])


def instrumentation(bin_dir, workdir, sink_url, seconds, host_binary=None):
    """Host CPU per CheckFileInfo on three SQLite hosts that differ only in instrumentation: `off` (no metrics
    registry, no tracer: swift-metrics' and swift-distributed-tracing's no-op paths), `metrics` (recorded into a
    Prometheus registry, not scraped) and `metrics+traces` (also every span recorded by swift-otel and exported over
    OTLP/HTTP to `sink_url`). On a shared machine the load changes under a run, so the hosts take turns: rounds of
    `seconds` each, the order reversed every other round, and each figure is the sum of CPU over the sum of
    requests. Returns {label: figures} with `rounds` (per-round CPU µs/req)."""
    hosts, started = {}, []
    try:
        for label, extra, env in INSTRUMENTED:
            env = dict(env, OTEL_EXPORTER_OTLP_ENDPOINT=sink_url) if env else env
            host = Host(bin_dir, "sqlite", workdir, label=f"sqlite-{label}", extra=extra, env=env,
                        binary=host_binary)
            started.append(host)
            host.wait_listening()
            hosts[label] = (host, host.prepare(0)[1]["CheckFileInfo"])
        totals = {label: {"cpu": 0.0, "requests": 0, "seconds": 0, "rounds": []} for label in hosts}
        labels = list(hosts)
        for round_index in range(INSTRUMENTATION_ROUNDS):
            for label in labels if round_index % 2 == 0 else reversed(labels):
                host, paths = hosts[label]
                figures = wrk(host, *paths, seconds, workdir)
                total = totals[label]
                total["cpu"] += figures["cpu_us"] * figures["requests"]
                total["requests"] += figures["requests"]
                total["seconds"] += seconds
                total["rounds"].append(figures["cpu_us"])
                print(f"instrumentation round {round_index + 1} {label:15} {figures}", flush=True)
        return {label: {"cpu_us": t["cpu"] / t["requests"], "rps": t["requests"] / t["seconds"],
                        "rounds": t["rounds"]} for label, t in totals.items()}
    finally:
        for host in started:
            host.stop()


def instrumentation_report(figures, seconds):
    """The instrumentation comparison as a Markdown table, each variant against `off`."""
    base = figures["off"]["cpu_us"]
    rows = [[label, f"{f['rps']:.0f}", f"{f['cpu_us']:.0f}", f"{(f['cpu_us'] / base - 1) * 100:+.1f}%",
             " ".join(f"{value:.0f}" for value in f["rounds"])] for label, f in figures.items()]
    return "\n".join([
        f"Instrumentation, CheckFileInfo on SQLite: {INSTRUMENTATION_ROUNDS} alternating rounds of {seconds} s per "
        "host (the order reversed every other round; the machine is shared, so compare within a run only).",
        "",
        table(["instrumentation", "req/s", "CPU µs/req", "vs off", "CPU µs/req by round"], rows),
    ])


def dd(source, target, remove=True):
    """MiB/s of dd copying `source` (in the page cache) to `target`, with one fdatasync at the end; `target` is
    removed afterwards unless `remove` is false."""
    start = time.time()
    subprocess.run(["dd", f"if={source}", f"of={target}", "bs=1M", "conv=fdatasync"], check=True,
                   capture_output=True)
    seconds = time.time() - start
    size = os.path.getsize(target)
    if remove:
        os.remove(target)
    return size / 1048576 / seconds


def machine():
    model = "unknown CPU"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as f:
        memory = int(f.readline().split()[1]) / 1048576
    return f"{os.cpu_count()} CPUs ({model}), {memory:.0f} GiB RAM, Linux {platform.release()}"


def versions():
    swift = run(["swift", "--version"]).strip().splitlines()[0] if shutil.which("swift") else "swift ?"
    nginx = subprocess.run(["nginx", "-v"], capture_output=True, text=True).stderr.strip().replace("nginx version: ", "")
    wrk_version = subprocess.run(["wrk", "-v"], capture_output=True, text=True).stdout.split("\n")[0].split(" Copyright")[0].strip()
    commit = run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"]).strip() if shutil.which("git") else "?"
    postgres = run([os.path.join(PG_BIN, "postgres"), "--version"]).strip().replace("postgres (PostgreSQL) ", "")
    return f"{swift}; {nginx}; {wrk_version}; PostgreSQL {postgres}; WOPIKit {commit}"


def build_kind(bin_dir):
    """The configuration the executables in `bin_dir` were built in: "release" or "debug"."""
    return "release" if "/release" in os.path.realpath(bin_dir) else "debug"


def stop_all(servers, workdir):
    """Stops `servers` and removes the run's `workdir`."""
    for server in servers:
        server.stop()
    shutil.rmtree(workdir, ignore_errors=True)


def load_average():
    with open("/proc/loadavg") as f:
        return f.read().split()[0]


def table(header, rows):
    widths = [max(len(str(row[i])) for row in [header] + rows) for i in range(len(header))]
    line = lambda cells: "| " + " | ".join(str(c).ljust(w) for c, w in zip(cells, widths)) + " |"
    return "\n".join([line(header), "|" + "|".join("-" * (w + 2) for w in widths) + "|"] + [line(r) for r in rows])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--smoke", action="store_true", help="short run on the debug build; checks it works")
    parser.add_argument("--seconds", type=int, help="wrk duration per scenario (default 10, smoke 1)")
    parser.add_argument("--size-mib", type=int, action="append", help="GetFile/PutFile sizes (default 10, 1024)")
    parser.add_argument("--children", type=int, help="files in the EnumerateChildren folder (default 1000)")
    parser.add_argument("--bin", help="directory of the built executables (default: swift build --show-bin-path)")
    parser.add_argument("--no-doc", action="store_true", help="do not write Docs/benchmarks.md")
    parser.add_argument("--scenario", action="append",
                        help="run only this scenario (repeatable; e.g. CheckFileInfo, GetLock, GetFile: wrk's)")
    parser.add_argument("--no-cluster", action="store_true", help="leave out the PostgreSQL cluster")
    parser.add_argument("--no-transfers", action="store_true", help="leave out wopikit-bench's transfers and dd")
    parser.add_argument("--no-instrumentation", action="store_true",
                        help="leave out the comparison of CheckFileInfo with metrics and traces off and on")
    parser.add_argument("--host-binary", help="the wopi-host to measure (default: the one in --bin)")
    parser.add_argument("--instrumentation-only", action="store_true",
                        help="only the instrumentation comparison (CheckFileInfo with metrics and traces off and on)")
    parser.add_argument("--office-only", action="store_true",
                        help="only the Office documents through incremental transfer (issue 25)")
    parser.add_argument("--incremental-only", action="store_true",
                        help="only incremental transfer (PutChunkedFile/GetChunkedFile of a zip beside PutFile/GetFile)")
    options = parser.parse_args()
    office_mib = 1 if options.smoke else 10
    seconds = options.seconds or (1 if options.smoke else 10)
    sizes = options.size_mib or ([1] if options.smoke else [10, 1024])
    children_count = options.children or (50 if options.smoke else 1000)
    configuration = "debug" if options.smoke else "release"
    bin_dir = options.bin or run(["swift", "build", "-c", configuration, "--show-bin-path"], cwd=ROOT).strip()
    # `wopi` is the client of the Office documents' scenario (`office_documents`): checked here with the rest when
    # that scenario runs, so that a missing product fails the run at once rather than after the others.
    alone = options.instrumentation_only or options.incremental_only
    with_office = options.office_only or (not alone and (not options.scenario or "Office" in options.scenario))
    products = () if options.office_only else ("wopikit-bench", "wopikit-hello")
    for product in ("wopi-host",) + products + (("wopi",) if with_office else ()):
        if not os.access(os.path.join(bin_dir, product), os.X_OK):
            raise BenchFailure(f"{bin_dir}/{product} is missing; build it (swift build -c {configuration})")
    if options.office_only:
        office_only(bin_dir, office_mib)
        return
    for tool in ("wrk", "nginx", "dd"):
        if not shutil.which(tool):
            raise BenchFailure(f"{tool} is missing; run scripts/install-deps.sh --test")
    if not os.access(os.path.join(PG_BIN, "initdb"), os.X_OK):
        raise BenchFailure(f"PostgreSQL 15 is missing ({PG_BIN}/initdb); run scripts/install-deps.sh --test")

    workdir = tempfile.mkdtemp(prefix="wopikit-bench-")
    os.chmod(workdir, 0o755)  # nginx's workers may run as another user
    www = os.path.join(workdir, "www")
    os.mkdir(www)
    servers = []
    results = {}  # (scenario, server) -> figures
    paced = {}  # server -> CheckFileInfo's figures at the offered load of PACE_MS
    loads = [load_average()]
    if options.incremental_only:
        incremental_only(options, bin_dir, workdir, loads)
        return
    if options.instrumentation_only:
        try:
            nginx = Nginx(www, workdir)
            servers.append(nginx)
            nginx.wait_listening()
            figures = instrumentation(bin_dir, workdir, nginx.url, seconds, options.host_binary)
        finally:
            stop_all(servers, workdir)
        loads.append(load_average())
        build = build_kind(bin_dir)
        text = "\n".join([
            f"### {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, {build} build, instrumentation only",
            "", f"Machine: {machine()}. Versions: {versions()}. Load average (1 min) at the start and the end: "
            f"{', '.join(loads)}.", "", instrumentation_report(figures, seconds), ""])
        print("\n" + text)
        return
    try:
        hosts = {}
        scenarios = None
        for storage in ("sqlite", "fs"):
            host = Host(bin_dir, storage, workdir, binary=options.host_binary)
            servers.append(host)
            host.wait_listening()
            info, scenarios_of_host = host.prepare(children_count)
            hosts[storage] = (host, scenarios_of_host)
            scenarios = [name for name in scenarios_of_host
                         if not options.scenario or any(name.startswith(wanted) for wanted in options.scenario)]
        cluster, postgres = None, {}
        if not options.no_cluster:
            cluster = Cluster(bin_dir, workdir, CLUSTER_HOSTS)
            servers.append(cluster)
            cluster.wait_listening()
            _, postgres_paths = cluster.prepare(children_count)
            postgres = {"wopi-host postgres": Endpoint("wopi-host postgres (host 1)", cluster.hosts[0].url,
                                                       cluster.hosts[0].pids(), cluster.database_cpu),
                        f"wopi-host postgres ×{CLUSTER_HOSTS}": Endpoint(
                            f"wopi-host postgres ({CLUSTER_HOSTS} hosts through nginx)", cluster.url,
                            [pid for host in cluster.hosts for pid in host.pids()], cluster.database_cpu)}
        with open(os.path.join(www, "checkfileinfo.json"), "wb") as f:
            f.write(info)
        hello = Server("hello-world", [os.path.join(bin_dir, "wopikit-hello"), "--body-size", str(len(info))])
        servers.append(hello)
        hello.wait_listening()
        nginx = Nginx(www, workdir)
        servers.append(nginx)
        nginx.wait_listening()

        for scenario in scenarios:
            results[(scenario, "hello-world")] = wrk(hello, ["/checkfileinfo.json"], "", seconds, workdir)
            if scenario == "CheckFileInfo":
                results[(scenario, "nginx")] = wrk(nginx, ["/checkfileinfo.json"], "", seconds, workdir)
            for storage, (host, paths) in hosts.items():
                results[(scenario, f"wopi-host {storage}")] = wrk(host, *paths[scenario], seconds, workdir)
                print(f"{scenario:28} {storage:7} {results[(scenario, f'wopi-host {storage}')]}", flush=True)
            for name, endpoint in postgres.items():
                paths = cluster.front[scenario] if endpoint.url == cluster.url else postgres_paths[scenario]
                results[(scenario, name)] = wrk(endpoint, *paths, seconds, workdir)
                print(f"{scenario:28} {name[10:]:7} {results[(scenario, name)]}", flush=True)
        if "CheckFileInfo" in scenarios:
            targets = {"hello-world": (hello, (["/checkfileinfo.json"], ""))}
            targets.update({f"wopi-host {storage}": (host, paths["CheckFileInfo"])
                            for storage, (host, paths) in hosts.items()})
            if postgres:
                targets["wopi-host postgres"] = (postgres["wopi-host postgres"], postgres_paths["CheckFileInfo"])
            for name, (server, paths) in targets.items():
                paced[name] = wrk(server, *paths, seconds, workdir, delay_ms=PACE_MS)
                print(f"CheckFileInfo, paced         {name[-8:]:8} {paced[name]}", flush=True)
        # GetFile read by wrk, which discards the body: the smallest size, from nginx and each storage.
        bench = os.path.join(bin_dir, "wopikit-bench")
        size_args = [arg for size in sizes for arg in ("--size-mib", str(size))]
        run([bench, "--write-patterns", www] + size_args)
        get_size = min(sizes)
        pattern = f"pattern-{get_size}MiB.bin"
        get_rows = []
        if not options.scenario or "GetFile" in options.scenario:
            get_rows.append(("nginx", wrk_get(nginx, "/" + pattern, seconds)))
        for storage, (host, _) in hosts.items() if get_rows else []:
            get_rows.append((f"wopi-host {storage}", wrk_get(host, host.upload(pattern, os.path.join(www, pattern)),
                                                             seconds)))
            print(f"GetFile {get_size} MiB (wrk)      {storage:7} {get_rows[-1][1]}", flush=True)
        loads.append(load_average())
        for host, _ in hosts.values():
            host.stop()
        instrumented = None
        if not options.no_instrumentation and (not options.scenario or "CheckFileInfo" in options.scenario):
            instrumented = instrumentation(bin_dir, workdir, nginx.url, seconds, options.host_binary)

        transfers, transfer_problem, dd_rates, sendfile_rounds = [], None, {}, None
        if not options.no_transfers:
            transfers, transfer_problem, dd_rates = measure_transfers(
                bench, options.host_binary or os.path.join(bin_dir, "wopi-host"), nginx, cluster, sizes, size_args, www,
                workdir)
            sendfile_rounds = sendfile_puts(
                bin_dir, options.host_binary, os.path.join(www, f"pattern-{max(sizes)}MiB.bin"), workdir)
            print("\n" + sendfile_report(sendfile_rounds, max(sizes)))
            incremental = measure_incremental(
                bench, options.host_binary or os.path.join(bin_dir, "wopi-host"), cluster,
                1 if options.smoke else INCREMENTAL_MIB, workdir)
            print("\n" + incremental_report(incremental))
        office = None
        if with_office:
            office = office_documents(bin_dir, workdir, office_mib)
        loads.append(load_average())
    finally:
        stop_all(servers, workdir)
    report(options, scenarios, results, get_size, get_rows, sizes, transfers, transfer_problem, dd_rates, seconds,
           bin_dir, loads, instrumented, office, sendfile_rounds, paced)


def measure_transfers(bench, host_binary, nginx, cluster, sizes, size_args, www, workdir):
    """wopikit-bench's PutFile and GetFile on every storage, and dd; returns the transfers, a problem, dd's rates."""
    transfers_file = os.path.join(workdir, "transfers.jsonl")
    # wopikit-bench exits 1 when a 1 GiB transfer passes its peak-RSS line, after writing its results:
    # the run goes on and reports it.
    storages = ["--storage", "sqlite", "--storage", "fs"] + (
        ["--storage", "postgres", "--database", cluster.database] if cluster else [])
    transfer_run = subprocess.run(
        [bench, "--host-binary", host_binary, "--reference-url", nginx.url]
        + storages + ["--json", transfers_file] + size_args,
        env=dict(os.environ, TMPDIR=workdir), stderr=subprocess.PIPE, text=True)
    if transfer_run.returncode != 0 and not os.path.exists(transfers_file):
        raise BenchFailure(f"wopikit-bench failed:\n{transfer_run.stderr}")
    transfer_problem = transfer_run.stderr.strip().splitlines()[-1] if transfer_run.returncode else None
    with open(transfers_file) as f:
        transfers = [json.loads(line) for line in f if line.strip()]
    dd_rates = {size: dd(os.path.join(www, f"pattern-{size}MiB.bin"), os.path.join(workdir, "dd.out"))
                for size in sizes}
    return transfers, transfer_problem, dd_rates


def measure_incremental(bench, host_binary, cluster, size_mib, workdir):
    """`wopikit-bench --incremental` on SQLite, fs and (with a cluster) its PostgreSQL database: a zip of `size_mib`
    moved whole by PutFile/GetFile and PutChunkedFile/GetChunkedFile, then after one small entry changed by a
    PutChunkedFile of the changed chunks and a GetChunkedFile naming the known ones. wopikit-bench puts every
    download together and fails on a wrong byte, which fails the run. Returns its JSON lines."""
    out = os.path.join(workdir, "incremental.jsonl")
    storages = ["--storage", "sqlite", "--storage", "fs"] + (
        ["--storage", "postgres", "--database", cluster.database] if cluster else [])
    run([bench, "--incremental", "--host-binary", host_binary, "--size-mib", str(size_mib), "--json", out]
        + storages, env=dict(os.environ, TMPDIR=workdir))
    with open(out) as f:
        return [json.loads(line) for line in f if line.strip()]


def incremental_report(rows):
    """The incremental-transfer figures as a table: bytes on the wire, chunks moved of the file's, the file's MiB
    over the request's time, the host's peak RSS."""
    def kib(count):
        return f"{count / 1024:,.1f}"
    body = [[r["storage"], r["operation"], kib(r["requestBytes"]), kib(r["responseBytes"]),
             f"{r['chunks']} of {r['ofChunks']}" if "chunks" in r else "",
             f"{r['fileBytes'] / 1048576 / r['seconds']:.0f}", f"{r['peakRSS'] / 1048576:.0f}"] for r in rows]
    size = f"{rows[0]['fileBytes'] / 1048576:.1f} MiB" if rows else "?"
    return f"Incremental transfer of a {size} zip:\n\n" + table(
        ["storage", "request", "request body KiB", "response body KiB", "chunks moved", "file MiB/s",
         "peak RSS MiB"], body)


def incremental_only(options, bin_dir, workdir, loads):
    """`--incremental-only`: the incremental-transfer scenario alone, with a one-host PostgreSQL cluster unless
    `--no-cluster`; prints the table with the date, build and load average (Docs/benchmarks.md's section is
    written by hand from it)."""
    servers = []
    try:
        cluster = None
        if not options.no_cluster:
            cluster = Cluster(bin_dir, workdir, 1)
            servers.append(cluster)
            cluster.wait_listening()
        rows = measure_incremental(
            os.path.join(bin_dir, "wopikit-bench"), options.host_binary or os.path.join(bin_dir, "wopi-host"),
            cluster, 1 if options.smoke else INCREMENTAL_MIB, workdir)
    finally:
        stop_all(servers, workdir)
    loads.append(load_average())
    build = build_kind(bin_dir)
    print(f"\n{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, {build} build. Machine: {machine()}. "
          f"Load average (1 min) at the start and the end: {', '.join(loads)}.\n\n" + incremental_report(rows))


def paced_report(paced, seconds):
    """The table of CheckFileInfo at one offered load (PACE_MS), each server beside the hello-world, in the order
    they were measured."""
    offered = CONNECTIONS * 1000 / PACE_MS
    hello = paced["hello-world"]
    rows = []
    for name, figures in paced.items():
        database_cpu = figures.get("database_cpu_us")
        rows.append([name, f"{figures['rps']:.0f}",
                     f"{figures['cpu_us']:.0f}", f"{figures['cpu_us'] - hello['cpu_us']:+.0f}",
                     f"{figures['cpu_us'] / hello['cpu_us']:.2f}×", f"{figures['p99']:.2f}",
                     "" if database_cpu is None else f"{database_cpu:.0f}"])
    return "\n".join([
        f"CheckFileInfo at one offered load: {CONNECTIONS} connections, each waiting {PACE_MS} ms after an answer "
        f"before its next request (at most {offered:,.0f} requests a second), {seconds} s each:", "",
        table(["server", "req/s", "CPU µs/req", "− hello-world µs", "× hello", "p99 ms", "PostgreSQL CPU µs/req"],
              rows)])


def report(options, scenarios, results, get_size, get_rows, sizes, transfers, transfer_problem, dd_rates, seconds,
           bin_dir, loads, instrumented, office=None, sendfile_rounds=None, paced=None):
    """Prints the tables and, for a full run, prepends them to Docs/benchmarks.md."""
    request_rows = []
    for scenario in scenarios:
        ceiling = results[(scenario, "hello-world")]["rps"]
        for name in SERVERS:
            figures = results.get((scenario, name))
            if figures:
                database_cpu = figures.get("database_cpu_us")
                request_rows.append([scenario, name, f"{figures['rps']:.0f}", f"{figures['rps'] / ceiling:.2f}×",
                                     f"{figures['p99']:.2f}", f"{figures['cpu_us']:.0f}",
                                     "" if database_cpu is None else f"{database_cpu:.0f}"])
    get_reference = get_rows[0][1]["MiBps"] if get_rows else 0
    get_table = [[name, f"{get_size} MiB", f"{figures['MiBps']:.0f}", f"{figures['MiBps'] / get_reference:.2f}×",
                  f"{figures['cpu_us_per_mib']:.0f}"] for name, figures in get_rows]
    transfer_rows = []
    for size in sizes if transfers else []:
        reference = next(t for t in transfers if t["storage"] == "reference" and t["size"] == size << 20)
        transfer_rows.append(["nginx", f"{size} MiB", f"{reference['getMiBps']:.0f}", "1.00×", "", "", "", ""])
        transfer_rows.append(["dd", f"{size} MiB", "", "", f"{dd_rates[size]:.0f}", "1.00×", "", ""])
        for t in transfers:
            if t["storage"] != "reference" and t["size"] == size << 20:
                transfer_rows.append([
                    f"wopi-host {t['storage']}", f"{size} MiB", f"{t['getMiBps']:.0f}",
                    f"{t['getMiBps'] / reference['getMiBps']:.2f}×", f"{t['putMiBps']:.0f}",
                    f"{t['putMiBps'] / dd_rates[size]:.2f}×", f"{t['putPeakRSS'] / 1048576:.0f}",
                    f"{t['getPeakRSS'] / 1048576:.0f}"])
    build = build_kind(bin_dir)
    mode = f"smoke run ({build} build; figures not meaningful)" if options.smoke else f"{build} build"
    report = "\n".join([
        f"### {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, {mode}",
        "",
        f"Machine: {machine()}. Versions: {versions()}.",
        f"wrk: {CONNECTIONS} threads × 1 connection, {seconds} s per scenario; host CPU = utime+stime of the "
        f"server's processes / requests (postgres ×{CLUSTER_HOSTS}: the sum over the hosts behind nginx, without "
        "nginx; the PostgreSQL server and backends are the last column). Load average (1 min) at the start, after the request scenarios, at the end: "
        f"{', '.join(loads)}.",
        "",
        table(["scenario", "server", "req/s", "× hello", "p99 ms", "CPU µs/req", "PostgreSQL CPU µs/req"],
              request_rows),
        "",
    ] + ([
        paced_report(paced, seconds),
        "",
    ] if paced else []) + ([
        f"GetFile read by wrk (2 threads, 4 connections, bodies discarded), {seconds} s each:",
        "",
        table(["server", "size", "GetFile MiB/s (wrk)", "× nginx", "server CPU µs/MiB"], get_table),
        "",
    ] if get_table else []) + ([
        instrumentation_report(instrumented, seconds),
        "",
    ] if instrumented else []) + ([
        table(["server", "size", "GetFile MiB/s", "× nginx", "PutFile MiB/s", "× dd", "Put peak RSS MiB",
               "Get peak RSS MiB"], transfer_rows),
        "",
    ] if transfer_rows else []) + ([
        sendfile_report(sendfile_rounds, max(sizes)),
        "",
    ] if sendfile_rounds else []) + ([
        office_caption(office),
        "",
        office_report(office),
        "",
    ] if office else []) + ([f"**wopikit-bench failed its check**: {transfer_problem}", ""] if transfer_problem else []))
    print("\n" + report)
    if not options.smoke and not options.no_doc and not (options.scenario or options.no_cluster
                                                         or options.no_transfers or options.host_binary):
        with open(DOC) as f:
            doc = f.read()
        if MARKER not in doc:
            raise BenchFailure(f"{DOC} lacks the line {MARKER}")
        with open(DOC, "w") as f:
            f.write(keep_newest_runs(doc.replace(MARKER, MARKER + "\n\n" + report, 1)))
        print(f"prepended to {DOC}")
    if transfer_problem:
        raise BenchFailure(f"wopikit-bench: {transfer_problem}")


def keep_newest_runs(doc, keep=3):
    """`doc` with its newest `keep` runs; the older ones go to the top of HISTORY's earlier runs, newest first."""
    head, _, runs = doc.partition(MARKER)
    starts = [m.start() for m in re.finditer(r"^### ", runs, re.MULTILINE)]
    if len(starts) <= keep:
        return doc
    older = runs[starts[keep]:].strip()
    with open(HISTORY) as f:
        history = f.read()
    if HISTORY_MARKER not in history:
        raise BenchFailure(f"{HISTORY} lacks the line {HISTORY_MARKER}")
    with open(HISTORY, "w") as f:
        f.write(history.replace(HISTORY_MARKER, HISTORY_MARKER + "\n\n" + older + "\n", 1))
    return head + MARKER + runs[:starts[keep]].rstrip() + "\n"


# Issue 25: real Office documents through incremental transfer (`office_*` functions, kept apart from the other
# scenarios). python3-docx writes and edits the .docx, python3-openpyxl the .xlsx, LibreOffice headless the .pptx;
# every byte between the clients and the host is counted at the socket by a proxy.

OFFICE_KINDS = ("docx", "xlsx", "pptx")
OFFICE_GOAL = 0.05  # issue 25: at most 5% of the file's size on the wire for an edit's upload and download
OFFICE_PYTHON = "/usr/bin/python3"  # Debian's, with the Debian packages (a python3 earlier on PATH may lack them)


class ByteCountingProxy:
    """A TCP proxy on 127.0.0.1 that counts every byte each way: `sent` from clients to the host, `received` back.
    Start it first (its URL is the host's --public-url), then `forward` to the host's port."""

    def __init__(self):
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.upstream = None
        self.lock = threading.Lock()
        self.sent = self.received = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def forward(self, port):
        self.upstream = port

    def counts(self):
        with self.lock:
            return self.sent, self.received

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.upstream is None:
                client.close()
                continue
            host = socket.create_connection(("127.0.0.1", self.upstream))
            threading.Thread(target=self._pump, args=(client, host, "sent"), daemon=True).start()
            threading.Thread(target=self._pump, args=(host, client, "received"), daemon=True).start()

    def _pump(self, source, target, direction):
        try:
            while True:
                data = source.recv(1 << 16)
                if not data:
                    break
                with self.lock:
                    setattr(self, direction, getattr(self, direction) + len(data))
                target.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, target):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()

    def stop(self):
        self.listener.close()


def office_make(kind, path, images, edited):
    """Writes (edited=False) or edits in place (edited=True) a document of `kind` with scripts/office-document.py,
    run by Debian's python3, whose packages python3-docx, python3-openpyxl and python3-pil are."""
    run([OFFICE_PYTHON, os.path.join(ROOT, "scripts", "office-document.py"), "edit" if edited else "make", kind, path,
         str(images)], timeout=600)


def office_documents(bin_dir, workdir, size_mib):
    """Issue 25's measurement: for a .docx, .xlsx and .pptx of at least `size_mib` MiB, the bytes at the socket of
    an edit's upload (`wopi put`) and of a second client's download of it (`wopi get`, its cache holding the
    previous version), beside a full PutFile and GetFile of the same file. The host is `wopi-host serve
    --coauthoring` on SQLite. Raises BenchFailure when the host's bytes differ from the local file."""
    for module, package in (("docx", "python3-docx"), ("openpyxl", "python3-openpyxl"), ("PIL", "python3-pil")):
        if subprocess.run([OFFICE_PYTHON, "-c", f"import {module}"], capture_output=True).returncode != 0:
            raise BenchFailure(f"{package} is missing; run scripts/install-deps.sh --test")
    if not (shutil.which("soffice") or shutil.which("libreoffice")):
        raise BenchFailure("LibreOffice is missing; run scripts/install-deps.sh --test")
    base = os.path.join(workdir, "office")
    os.makedirs(base)
    proxy = ByteCountingProxy()
    host = Server("wopi-host (office documents)", [
        os.path.join(bin_dir, "wopi-host"), "serve", "--demo", "--data", os.path.join(base, "data"), "--storage",
        "sqlite", "--port", "0", "--log-level", "warning", "--coauthoring", "--real-time-channel-url",
        "http://127.0.0.1:9/rtc", "--collaboration-service-url", "http://127.0.0.1:9/collab", "--public-url",
        proxy.url])
    rows = []
    try:
        proxy.forward(urllib.parse.urlsplit(host.wait_listening()).port)
        wopi = os.path.join(bin_dir, "wopi")
        editor = dict(os.environ, XDG_CONFIG_HOME=os.path.join(base, "config"),
                      XDG_CACHE_HOME=os.path.join(base, "cache-editor"),
                      BROWSER=os.path.join(ROOT, "scripts", "demo-browser.sh"))
        reader = dict(editor, XDG_CACHE_HOME=os.path.join(base, "cache-reader"))
        run([wopi, "login", proxy.url + "/wopibootstrapper"], env=editor)
        for kind in OFFICE_KINDS:
            work = os.path.join(base, kind)
            os.makedirs(work)
            local, copy = os.path.join(work, f"Report.{kind}"), os.path.join(work, f"copy.{kind}")
            office_make(kind, local, size_mib + 1, edited=False)
            run([wopi, "put", local, f"Report.{kind}"], env=editor)
            run([wopi, "get", f"Report.{kind}", copy], env=reader)
            office_make(kind, local, size_mib + 1, edited=True)
            size = os.path.getsize(local)
            upload = office_counted(proxy, [wopi, "put", local, f"Report.{kind}"], editor)
            download = office_counted(proxy, [wopi, "get", f"Report.{kind}", copy], reader)
            src, token = office_token(bin_dir, base, f"Report.{kind}")
            full_put = office_counted(proxy, lambda: office_put_file(src, token, local))
            served = os.path.join(work, f"served.{kind}")
            full_get = office_counted(proxy, lambda: office_get_file(src, token, served))
            with open(local, "rb") as a, open(copy, "rb") as b, open(served, "rb") as c:
                mine = a.read()
                if b.read() != mine or c.read() != mine:
                    raise BenchFailure(f"the host's {kind} differs from the local file after the edit")
            rows.append({"kind": kind, "size": size, "upload": upload, "download": download, "putFile": full_put,
                         "getFile": full_get})
            print(f"office {kind}: {size} bytes; edit up {upload}, down {download}; PutFile {full_put}, "
                  f"GetFile {full_get}", flush=True)
    finally:
        host.stop()
        proxy.stop()
    return rows


def office_counted(proxy, command, env=None):
    """The bytes (both ways) at the proxy while `command` (a command line, or a function) runs."""
    sent, received = proxy.counts()
    if callable(command):
        command()
    else:
        run(command, env=env)
    # The proxy counts each piece before passing it on, so everything the client saw is counted by now.
    after_sent, after_received = proxy.counts()
    return after_sent - sent + after_received - received


def office_token(bin_dir, base, name):
    out = json.loads(run([os.path.join(bin_dir, "wopi-host"), "token", "--data", os.path.join(base, "data"),
                          "--user", "demo", "--file", name]))
    return out["wopiSrc"], out["accessToken"]


def office_call(method, url, headers, body=None, into=None):
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=600)
    try:
        connection.request(method, parts.path + "?" + parts.query, body=body, headers=headers)
        response = connection.getresponse()
        if into is not None and response.status == 200:
            with open(into, "wb") as f:
                shutil.copyfileobj(response, f)
        answer = response.read()
    finally:
        connection.close()
    if response.status != 200:
        raise BenchFailure(f"{method} {parts.path} answered {response.status}: {answer[:300]!r}")


def office_put_file(src, token, path):
    """A whole-file PutFile of `path` under a lock (Lock, PutFile, Unlock)."""
    url, lock = f"{src}?access_token={token}", {"X-WOPI-Lock": "bench-office"}
    office_call("POST", url, {"X-WOPI-Override": "LOCK", **lock}, b"")
    with open(path, "rb") as body:
        office_call("POST", f"{src}/contents?access_token={token}",
                    {"X-WOPI-Override": "PUT", "Content-Length": str(os.path.getsize(path)), **lock}, body)
    office_call("POST", url, {"X-WOPI-Override": "UNLOCK", **lock}, b"")


def office_get_file(src, token, into):
    office_call("GET", f"{src}/contents?access_token={token}", {}, into=into)


def office_report(rows):
    """The table of `office_documents`, each figure with its share of the file's size."""
    def share(count, size):
        return f"{count / 1024:.0f} KiB ({100 * count / size:.1f}%)"

    return table(["document", "size", "edit: upload", "edit: 2nd client's download", "PutFile", "GetFile"], [
        [f".{row['kind']}", f"{row['size'] / 1048576:.1f} MiB", share(row["upload"], row["size"]),
         share(row["download"], row["size"]), share(row["putFile"], row["size"]), share(row["getFile"], row["size"])]
        for row in rows])


def office_caption(rows):
    return (f"Office documents through incremental transfer (issue 25): bytes at the socket, both ways, for an "
            f"edit's `wopi put` and a second client's `wopi get`, beside a whole-file PutFile and GetFile; host "
            f"`wopi-host serve --coauthoring`, SQLite. Goal: each edit figure at most {OFFICE_GOAL:.0%} of the size.")


def office_only(bin_dir, size_mib):
    """`--office-only`: the Office documents alone, printed with the date, load and build."""
    workdir = tempfile.mkdtemp(prefix="wopikit-bench-")
    loads = [load_average()]
    try:
        rows = office_documents(bin_dir, workdir, size_mib)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    loads.append(load_average())
    build = build_kind(bin_dir)
    print("\n" + "\n".join([
        f"### {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, {build} build, Office documents only",
        "", f"Machine: {machine()}. Versions: {versions()}. Load average (1 min) at the start and the end: "
        f"{', '.join(loads)}. Command: scripts/bench.py --office-only --bin {bin_dir}.", "", office_caption(rows), "",
        office_report(rows), ""]))
    over = [row["kind"] for row in rows if max(row["upload"], row["download"]) > OFFICE_GOAL * row["size"]]
    if over:
        print(f"over the {OFFICE_GOAL:.0%} goal: {', '.join(over)}")


if __name__ == "__main__":
    try:
        main()
    except (BenchFailure, subprocess.CalledProcessError) as error:
        detail = getattr(error, "stderr", None) or ""
        print(f"bench: {error}\n{detail}", file=sys.stderr)
        sys.exit(1)
