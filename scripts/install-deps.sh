#!/usr/bin/env bash
# Installs the Debian packages WOPIKit needs, only those missing. Safe to run again.
#   scripts/install-deps.sh          packages to build and run the host
#   scripts/install-deps.sh --test   plus what the test suite drives: headless Chromium, fio, curl, openssl, git, vim
#                                    and rsync (the mount tests), Debian's python3 with Authlib (the independent OAuth
#                                    implementation of the interop tests), wrk and nginx (the benchmark suite), and
#                                    postgresql-15 (the PostgreSQL suites and scripts/cluster.sh, with nginx),
#                                    prometheus (the metrics test scrapes the example host; promtool checks the alerts),
#                                    python3-docx, python3-openpyxl with python3-pil, and LibreOffice headless
#                                    (the benchmark's Office documents through incremental transfer), and Ceph's
#                                    ceph-mon, ceph-osd, radosgw and ceph-common with python3-boto3 and s3cmd (the
#                                    object-storage suites and benchmark against a throw-away S3 server started by
#                                    scripts/ceph-cluster.sh)
set -euo pipefail
packages=(libsqlite3-dev libcurl4-openssl-dev libssl-dev libfuse3-dev fuse3 pkg-config)
if [ "${1:-}" = "--test" ]; then
  packages+=(chromium chromium-driver fio curl openssl git vim rsync python3 python3-authlib python3-flask
    python3-requests wrk nginx postgresql-15 prometheus python3-docx python3-openpyxl python3-pil
    libreoffice-impress-nogui ceph-mon ceph-osd radosgw ceph-common python3-boto3 s3cmd)
fi
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
sudo_cmd=""
[ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
$sudo_cmd apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
