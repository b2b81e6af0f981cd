#!/usr/bin/env python3
"""What a kept version costs (issue 46, Docs/versions.md): a .docx of SIZE MiB (python3-docx, pictures of random
pixels) is imported, then edited SAVES times, one paragraph each time, and each edit saved by a whole-file PutFile
under a lock, as Office for the web saves. The storage is measured before the first edit and after the last: on
SQLite, the bytes of every file of the data directory (the databases after a checkpoint of their WAL, and the chunk files); on PostgreSQL (scripts/cluster.sh with one host), `pg_database_size` after `VACUUM`. Goal: each kept
version costs at most 5% of the file. Every version is then read back and checked against the local copy of it.

    scripts/bench-versions.py [--bin DIR]   release build: 50 saves of a 10 MiB .docx
    scripts/bench-versions.py --smoke       the debug build `make test` made: 3 saves of a 1 MiB .docx (checks it
                                            works, not its figures; `make bench-smoke`)
"""
import argparse
import datetime
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402  (the suite's helpers: servers, the cluster, Office documents, PutFile)

GOAL = 0.05
NAME = "Growth.docx"


def storage_bytes(directory):
    """The bytes of every file below `directory`, after a checkpoint of each SQLite database's WAL into it (the
    write-ahead log keeps the pages of recent transactions, not what they stored)."""
    for name in os.listdir(directory):
        if name.endswith(".sqlite"):
            with sqlite3.connect(os.path.join(directory, name)) as database:
                busy, _, _ = database.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
                if busy:
                    raise bench.BenchFailure(f"the checkpoint of {name} was blocked")
    sizes = {os.path.relpath(os.path.join(root, name), directory): os.path.getsize(os.path.join(root, name))
             for root, _, names in os.walk(directory) for name in names}
    if os.environ.get("BENCH_VERSIONS_DEBUG"):
        print(sorted(sizes.items(), key=lambda item: -item[1])[:12])
    return sum(sizes.values())


def database_bytes(database):
    psql = os.path.join(bench.PG_BIN, "psql")
    bench.run([psql, database, "-qc", "VACUUM"])
    return int(bench.run([psql, database, "-Atc", "SELECT pg_database_size(current_database())"]).strip())


def measure(label, host_bin, token_args, size_of_storage, saves, size_mib, work):
    """Imports the document, saves `saves` edits of it through the running host, and checks every version it then
    lists.
    Returns the figures; `size_of_storage()` reads the storage before and after."""
    local = os.path.join(work, NAME)
    bench.office_make("docx", local, size_mib, edited=False)
    bench.run([host_bin, "import", *token_args, "--user", "demo", local, NAME])
    before = size_of_storage()
    token = json.loads(bench.run([host_bin, "token", *token_args, "--user", "demo", "--file", NAME]))
    saved = [hashlib.sha256(open(local, "rb").read()).hexdigest()]
    for save in range(saves):
        bench.run([bench.OFFICE_PYTHON, os.path.join(bench.ROOT, "scripts", "office-document.py"), "edit", "docx",
                   local, str(size_mib), f"Edit {save + 1}: this paragraph changed before save {save + 1}."])
        bench.office_put_file(token["wopiSrc"], token["accessToken"], local)
        saved.append(hashlib.sha256(open(local, "rb").read()).hexdigest())
    after = size_of_storage()
    listed = json.loads(bench.run([host_bin, "versions", *token_args, "--user", "demo", NAME, "--json"]))
    for version in listed:
        content = subprocess.run([host_bin, "versions", *token_args, "--user", "demo", NAME, "--get", version["id"]],
                                 check=True, capture_output=True).stdout
        if hashlib.sha256(content).hexdigest() not in saved:
            raise bench.BenchFailure(f"{label}: version {version['id']} is not one of the saved documents")
    if len(listed) < min(saves, 50):
        raise bench.BenchFailure(f"{label}: {len(listed)} versions listed after {saves} saves")
    size = os.path.getsize(local)
    figures = {"storage": label, "size": size, "saves": saves, "versions": len(listed), "before": before,
               "after": after, "perVersion": (after - before) / saves}
    print(f"versions {label}: {json.dumps(figures)}", flush=True)
    return figures


def sqlite(bin_dir, workdir, saves, size_mib):
    work = os.path.join(workdir, "sqlite")
    os.makedirs(work)
    host = bench.Host(bin_dir, "sqlite", work)
    try:
        host.wait_listening()
        return measure("SQLite", host.bin, host.token_args, lambda: storage_bytes(host.data), saves, size_mib,
                       work)
    finally:
        host.stop()


def postgres(bin_dir, workdir, saves, size_mib):
    work = os.path.join(workdir, "postgres")
    os.makedirs(work)
    cluster = bench.Cluster(bin_dir, work, 1)
    try:
        cluster.wait_listening()
        return measure("PostgreSQL", cluster.bin, cluster.token_args, lambda: database_bytes(cluster.database),
                       saves, size_mib, work)
    finally:
        cluster.stop()


def report(rows):
    return bench.table(
        ["storage", "document", "saves", "versions listed", "storage before", "after", "per kept version"],
        [[row["storage"], f"{row['size'] / 1048576:.1f} MiB", row["saves"], row["versions"],
          f"{row['before'] / 1048576:.1f} MiB", f"{row['after'] / 1048576:.1f} MiB",
          f"{row['perVersion'] / 1024:.0f} KiB ({100 * row['perVersion'] / row['size']:.1f}%)"] for row in rows])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--smoke", action="store_true", help="3 saves of 1 MiB on the debug build")
    parser.add_argument("--bin", help="directory of the built executables (default: swift build --show-bin-path)")
    parser.add_argument("--saves", type=int, help="edits saved (default 50, smoke 3)")
    options = parser.parse_args()
    saves = options.saves or (3 if options.smoke else 50)
    size_mib = 1 if options.smoke else 10
    configuration = "debug" if options.smoke else "release"
    bin_dir = options.bin or bench.run(["swift", "build", "-c", configuration, "--show-bin-path"],
                                       cwd=bench.ROOT).strip()
    if subprocess.run([bench.OFFICE_PYTHON, "-c", "import docx"], capture_output=True).returncode != 0:
        raise bench.BenchFailure("python3-docx is missing; run scripts/install-deps.sh --test")
    workdir = tempfile.mkdtemp(prefix="wopikit-bench-versions-")
    os.chmod(workdir, 0o755)  # PostgreSQL may run as another user
    loads = [bench.load_average()]
    try:
        rows = [sqlite(bin_dir, workdir, saves, size_mib), postgres(bin_dir, workdir, saves, size_mib)]
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    loads.append(bench.load_average())
    print("\n" + "\n".join([
        f"### {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, {bench.build_kind(bin_dir)} build, "
        "versions", "", f"Machine: {bench.machine()}. Versions: {bench.versions()}. Load average (1 min) at the start "
        f"and the end: {', '.join(loads)}. Command: scripts/bench-versions.py --bin {bin_dir}.", "",
        f"What a kept version costs: {saves} saves of a one-paragraph edit, each a whole-file PutFile, with the "
        f"default retention (keep the last 50). Goal: at most {GOAL:.0%} of the file per kept version.", "",
        report(rows), ""]))
    over = [row["storage"] for row in rows if row["perVersion"] > GOAL * row["size"]]
    if over and not options.smoke:
        raise bench.BenchFailure(f"over the {GOAL:.0%} goal: {', '.join(over)}")


if __name__ == "__main__":
    try:
        main()
    except (bench.BenchFailure, subprocess.CalledProcessError) as error:
        detail = getattr(error, "stderr", None) or ""
        print(f"bench-versions: {error}\n{detail}", file=sys.stderr)
        sys.exit(1)
