# shellcheck shell=bash
# nginx-for-bench.sh: the loopback nginx of the by-hand benches in clients/bench, sourced
# (not run) by held-capacity-at-scale, hold-vs-peers and load-vs-peers. It defines functions
# only; the sourcing script owns its temporary directory and its EXIT trap, which must call
# nginx_stop. Loopback only; nginx is stopped by the PID this shell started, never by name.
#
#   nginx_bin=/usr/sbin/nginx         # optional; default: nginx on PATH, or /usr/sbin/nginx
#   nginx_access_log="PATH FORMAT ..." # optional; the access_log directive's arguments, default off
#   nginx_tls_cert=PEM nginx_tls_key=PEM # optional; both set: the listener speaks TLS 1.2/1.3
#   nginx_listen_extra=" http2"       # optional; more listen parameters (" http2": h2c, or h2 with TLS)
#   nginx_start DIR WORKERS [WORKER_CONNECTIONS [HTTP_DIRECTIVES]]  # sets nginx_pid, nginx_port
#   nginx_rss_kib; nginx_fds; nginx_pids           # sampling, master and workers together
#   nginx_wait_fds_at_most N                       # bounded (10 s) wait for nginx_fds <= N
#   nginx_stop                                     # bounded: TERM, 5 s, then KILL
#
# The server: worker_processes WORKERS, `listen 127.0.0.1:PORT reuseport backlog=4096` on a
# free port, worker_rlimit_nofile 19990 (RLIMIT_NOFILE is 20,000 per process here),
# worker_connections WORKER_CONNECTIONS (default 16000), keep-alive 120 s / 100,000
# requests, access_log $nginx_access_log (default off), /health returns 200 "ok", /large a
# 16 MiB file (sparse zeros: the soak's abort path, as the bundled nginx targets have it), and
# HTTP_DIRECTIVES (e.g. "client_header_timeout 300s;" or a log_format that
# nginx_access_log names; default none) first in the http block. Its error log is
# DIR/error.log.

: "${nginx_bin:=$(command -v nginx || echo /usr/sbin/nginx)}"
: "${nginx_access_log:=off}"
: "${nginx_tls_cert:=}"
: "${nginx_tls_key:=}"
: "${nginx_listen_extra:=}"
nginx_pid=""
nginx_port=""

# Starts nginx in DIR (which must exist) and waits, up to 10 s, until every worker is up,
# /health answers, and that probe's connection is gone again (see nginx_idle): what nginx
# holds on return is its idle baseline. Call it directly, not in $( ): it sets nginx_pid and
# nginx_port, and exits the script (status 1, error log on stderr) if nginx dies or is not
# ready in time.
nginx_start() {
  local dir=$1 workers=$2 worker_connections=${3:-16000} http_directives=${4:-} n
  local ssl="" scheme=http tls_directives="" probe=""
  if [ -n "$nginx_tls_cert" ]; then
    ssl=" ssl" scheme=https
    tls_directives="ssl_certificate $nginx_tls_cert; ssl_certificate_key $nginx_tls_key; ssl_protocols TLSv1.2 TLSv1.3;"
  fi
  # An h2c listener speaks nothing else: the probe comes with prior knowledge.
  case "$nginx_listen_extra" in *http2*) [ -z "$ssl" ] && probe=--http2-prior-knowledge ;; esac
  # A free loopback port: the kernel picks it (bind to port 0), then it is released for nginx.
  truncate -s 16M "$dir/large.bin"
  nginx_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  # As root its worker would run as nobody, which cannot read large.bin in a private DIR: kept
  # root (another user's nginx ignores the line with a warning).
  cat >"$dir/nginx.conf" <<EOF
user root;
worker_processes $workers;
worker_rlimit_nofile 19990;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections $worker_connections; }
http {${http_directives:+
  $http_directives}
  access_log $nginx_access_log;
  keepalive_timeout 120s;
  keepalive_requests 100000;
  client_body_temp_path $dir/body;
  proxy_temp_path $dir/proxy;
  fastcgi_temp_path $dir/fastcgi;
  uwsgi_temp_path $dir/uwsgi;
  scgi_temp_path $dir/scgi;
  server {
    listen 127.0.0.1:$nginx_port reuseport backlog=4096$ssl$nginx_listen_extra;${tls_directives:+
    $tls_directives}
    location /health { return 200 "ok"; }
    location = /large { alias $dir/large.bin; }
  }
}
EOF
  "$nginx_bin" -p "$dir" -c "$dir/nginx.conf" -g 'daemon off;' 2>>"$dir/error.log" &
  nginx_pid=$!
  # Ready: every worker up and /health answering, then the probe's connection closed on
  # nginx's side; within 10 s (100 tries) in all.
  local answered=0
  for _ in $(seq 100); do
    n=$( (ps -o pid= --ppid "$nginx_pid" || true) | wc -l)  # ps fails while there are none
    if [ "$answered" = 0 ] && [ "$n" -ge "$workers" ] &&
      curl -sfk ${probe:+"$probe"} "$scheme://127.0.0.1:$nginx_port/health" >/dev/null 2>&1; then
      answered=1
    fi
    if [ "$answered" = 1 ] && nginx_idle; then return 0; fi
    kill -0 "$nginx_pid" 2>/dev/null || { cat "$dir/error.log" >&2; exit 1; }
    sleep 0.1
  done
  echo "nginx-for-bench: nginx (pid $nginx_pid) not ready on 127.0.0.1:$nginx_port in 10 s" >&2
  cat "$dir/error.log" >&2
  exit 1
}

# Stops the nginx this shell started, if it still runs: TERM to the master (which stops its
# workers), up to 5 s, then KILL. Safe to call twice.
nginx_stop() {
  if [ -n "$nginx_pid" ] && kill -0 "$nginx_pid" 2>/dev/null; then
    kill -TERM "$nginx_pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$nginx_pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$nginx_pid" 2>/dev/null; then kill -KILL "$nginx_pid" 2>/dev/null || true; fi
    wait "$nginx_pid" 2>/dev/null || true
  fi
  nginx_pid=""
}

# True when no connection to nginx's port holds a descriptor on nginx's side or waits in its
# accept queue: none ESTABLISHED (01) or CLOSE_WAIT (08) with that local port in
# /proc/net/tcp. (One nginx has closed is FIN_WAIT or TIME_WAIT: no descriptor left.)
nginx_idle() {
  awk -v port="$(printf ':%04X' "$nginx_port")" \
    'NR > 1 && substr($2, length($2) - 4) == port && ($4 == "01" || $4 == "08") { busy = 1 }
     END { exit busy }' /proc/net/tcp
}

# Waits, up to 10 s, until nginx holds at most N descriptors (its connections closed after a
# run: N is the idle baseline); returns 1 if it still holds more then.
nginx_wait_fds_at_most() {
  for _ in $(seq 40); do [ "$(nginx_fds)" -le "$1" ] && return 0; sleep 0.25; done
  return 1
}

nginx_pids() { echo "$nginx_pid"; ps -o pid= --ppid "$nginx_pid" || true; }

nginx_rss_kib() {  # VmRSS summed over master and workers
  local sum=0 p v
  for p in $(nginx_pids); do
    v=$(awk '/^VmRSS:/ {print $2}' "/proc/$p/status" 2>/dev/null || echo 0)
    sum=$((sum + ${v:-0}))
  done
  echo "$sum"
}

nginx_fds() {  # open descriptors over master and workers
  local sum=0 p
  for p in $(nginx_pids); do sum=$((sum + $(ls "/proc/$p/fd" 2>/dev/null | wc -l))); done
  echo "$sum"
}

nginx_version() { "$nginx_bin" -v 2>&1 | sed 's/.*\///'; }
