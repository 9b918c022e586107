#!/usr/bin/env python3
"""asyncio_holder: the Python asyncio peer of loiter-hold-bench's silent mode, for
clients/bench/hold-vs-peers. Stdlib only.

Opens N TCP connections to a loopback server at R per second on an absolute timeline
(connection i is started at start + i/R, however late the previous ones were), sends
nothing, waits until every one has connected or failed (bounded like loiter-hold-bench:
start + N/R + 3 s), holds them HOLD seconds, closes them, and prints one line:

  asyncio-holder asked=N connected=C held=H failed=F open_s=S rss_before_kib=A
                 rss_held_kib=B cpu_hold_s=U hold_s=T

  connected   connections that completed their connect
  held        connected ones still open at the end of the hold (no EOF, no reset)
  open_s      first connect started -> last connect completed (loiter-hold-bench's open-s)
  rss_*_kib   VmRSS (/proc/self/status) before the first connect, and once all settled
  cpu_hold_s  user + system CPU (getrusage) over the hold; hold_s its wall time

With --tls, each connection completes a TLS handshake first (no certificate check, ALPN
http/1.1, as loiter's TLS clients), then is held the same way.

Each connection is asyncio.open_connection(): a transport registered for reading (so a
server close or reset is seen, as loiter's silent hold sees it) with its StreamReader and
StreamWriter kept until the end. Targets outside 127.0.0.0/8 are refused.

  python3 clients/bench/asyncio_holder.py --connect 127.0.0.1:8080 --count 2000 \\
      --rate 5000 --hold 2
"""
import argparse
import asyncio
import ipaddress
import math
import resource
import ssl
import sys
import time


def vm_rss_kib():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1


def cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def client_tls():
    """TLS as loiter's clients speak it: no certificate check, ALPN http/1.1, no SNI."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    context.set_alpn_protocols(["http/1.1"])
    return context


async def hold(host, port, count, rate, hold_s, connect_timeout, tls):
    rss_before = vm_rss_kib()  # the list below is counted with the connections
    loop = asyncio.get_running_loop()
    held = [None] * count  # (reader, writer) per connected index
    first_start = None
    last_connected = None
    failed = 0

    async def open_one(i):
        nonlocal first_start, last_connected, failed
        started = time.monotonic()
        if first_start is None or started < first_start:
            first_start = started
        try:
            held[i] = await asyncio.wait_for(asyncio.open_connection(host, port, ssl=tls),
                                             connect_timeout)
        except (OSError, asyncio.TimeoutError, ssl.SSLError):
            failed += 1
            return
        now = time.monotonic()
        if last_connected is None or now > last_connected:
            last_connected = now

    start = loop.time() + 0.1
    deadline = start + count / rate + 3.0  # everyone settled by then (as loiter-hold-bench)
    tasks = []
    i = 0
    while i < count:  # bounded: i grows every pass that is not a sleep until i's time
        due = min(count, math.floor((loop.time() - start) * rate) + 1)
        while i < due:
            tasks.append(asyncio.create_task(open_one(i)))
            i += 1
        if i < count:
            await asyncio.sleep(max(0.0, start + i / rate - loop.time()))
    # Settled: every connect done or failed, bounded by each one's connect_timeout.
    await asyncio.wait(tasks, timeout=max(0.1, deadline - loop.time() + connect_timeout))
    tasks = None
    rss_held = vm_rss_kib()
    cpu_before = cpu_seconds()
    hold_start = time.monotonic()
    await asyncio.sleep(hold_s)
    cpu_hold = cpu_seconds() - cpu_before
    hold_took = time.monotonic() - hold_start
    connected = sum(1 for c in held if c is not None)
    still = sum(1 for c in held if c is not None and not c[0].at_eof()
                and not c[1].transport.is_closing())
    for c in held:
        if c is not None:
            c[1].close()
    open_s = 0.0 if first_start is None or last_connected is None else last_connected - first_start
    print(f"asyncio-holder asked={count} connected={connected} held={still} "
          f"failed={count - connected} open_s={open_s:.3f} rss_before_kib={rss_before} "
          f"rss_held_kib={rss_held} cpu_hold_s={cpu_hold:.3f} hold_s={hold_took:.3f}",
          flush=True)
    await asyncio.sleep(0.2)  # let the closes go out


def main():
    parser = argparse.ArgumentParser(
        description="Holds N silent connections with asyncio and prints their cost",
        epilog="example: %(prog)s --connect 127.0.0.1:8080 --count 2000 --rate 5000 --hold 2")
    parser.add_argument("--connect", required=True, help="HOST:PORT, 127.0.0.0/8 only")
    parser.add_argument("--count", type=int, default=1000, help="connections (default 1000)")
    parser.add_argument("--rate", type=float, default=1000.0,
                        help="connections started per second (default 1000)")
    parser.add_argument("--hold", type=float, default=5.0,
                        help="seconds to hold once all have connected (default 5)")
    parser.add_argument("--connect-timeout", type=float, default=10.0,
                        help="seconds one connect may take (default 10)")
    parser.add_argument("--tls", action="store_true",
                        help="complete a TLS handshake on each connection, then hold it")
    o = parser.parse_args()
    host, _, port = o.connect.rpartition(":")
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        parser.error(f"--connect wants an IPv4 address in 127.0.0.0/8, not {host!r}")
    if address.version != 4 or address not in ipaddress.ip_network("127.0.0.0/8"):
        parser.error(f"refusing non-loopback target {host} (127.0.0.0/8 only)")
    if o.count < 1 or o.rate <= 0 or o.hold < 0:
        parser.error("--count >= 1, --rate > 0, --hold >= 0")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < o.count + 50:
        want = o.count + 50 if hard == resource.RLIM_INFINITY else min(hard, o.count + 50)
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
        if want < o.count + 50:
            sys.exit(f"asyncio_holder: RLIMIT_NOFILE {hard} is too low for {o.count}")
    tls = client_tls() if o.tls else None
    asyncio.run(hold(host, int(port), o.count, o.rate, o.hold, o.connect_timeout, tls))


if __name__ == "__main__":
    main()
