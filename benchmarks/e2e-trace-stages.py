#!/usr/bin/env python3
"""Where a record's time goes, from a `perf trace` of one broker and FixedRateLatency, both processes (written by
benchmarks/e2e-trace.sh). Usage: e2e-trace-stages.py TRACE

Per batch appended to the log (the broker's write to the file that its fetch responses are read from): the client
application's send() (its wake-up of the producer's sender thread: an 8-byte write), the request's writev, the
broker's read of it, the append, the produce response, and, when the append completed a parked fetch, the
wake-up of the thread that owns the fetch's connection (an 8-byte write to its selector's eventfd), that thread
running (its read of the eventfd), the fetch response's records leaving (sendfile; or, where minibroker copies a small
record set into the answer, the answer's one writev) and the consumer thread's read of the response. A batch that found no fetch parked (the consumer was still busy with an earlier one, or its next
fetch was on its way) is counted apart. Times are the ends of the system calls; perf trace's own cost is in them.
The file descriptors are recognised by what goes through them, in FixedRateLatency's one-partition setting."""
import bisect, collections, re, sys
trace = sys.argv[1]
pat = re.compile(r'^\s*([\d.]+) \(\s*([\d.]+) ms\): (.+?)/(\d+) (\w+)\((.*)\)\s+= (\d+)')
ev = []  # (end ms, thread name, tid, call, fd, result, sendfile's in_fd)
for line in open(trace):
    m = pat.match(line)
    if not m or float(m.group(1)) > 1e9:
        continue
    ts, dur, comm, tid, call, args, ret = m.groups()
    a = dict(kv.split(': ', 1) for kv in args.split(', ') if ': ' in kv)
    ev.append((float(ts) + float(dur), comm.strip(), int(tid), call, int(a.get('fd', a.get('out_fd', -1))), int(ret),
               int(a.get('in_fd', -1))))
ev.sort()
times = [e[0] for e in ev]
client = lambda e: e[1].startswith(('kafka-producer', 'e2e-reader', 'java'))
def most_common(values):
    return collections.Counter(values).most_common(1)[0][0]
# The produce connection carries the 66-byte produce responses (one partition, v9+).
bpf = most_common(e[4] for e in ev if not client(e) and e[3] in ('write', 'writev') and e[5] == 66)
cpf = most_common(e[4] for e in ev if e[1].startswith('kafka-producer') and e[3] == 'writev')
ccf = most_common(e[4] for e in ev if e[1].startswith('e2e-reader') and e[3] == 'writev')
sendfiles = [e for e in ev if e[3] == 'sendfile' and not client(e)]
if sendfiles:
    # The consumer's fetch connection carries the sendfiles; the log is what they read (in_fd, kept by the parser
    # above as the second fd).
    SENT = 'sendfile'
    bcf = most_common(e[4] for e in sendfiles)
    logfd = most_common(e[6] for e in sendfiles)
    framing = 0  # a sendfile carries the records alone
else:
    # Records copied into the answer (minibroker, a small set): the fetch connection carries the answers' writevs
    # (head, records, tail); the log is the file the appends pwrite; an answer of one batch is the batch and the
    # frame's other bytes, the same for every such answer.
    SENT = 'writev'
    bcf = most_common(e[4] for e in ev if not client(e) and e[3] == 'writev' and e[4] != bpf)
    logfd = most_common(e[4] for e in ev if not client(e) and e[3] == 'pwrite64')
    framing = (most_common(e[5] for e in ev if not client(e) and e[3] == 'writev' and e[4] == bcf)
               - most_common(e[5] for e in ev if not client(e) and e[3] == 'pwrite64' and e[4] == logfd))
fetch_threads = {e[2] for e in ev if not client(e) and e[3] == SENT and e[4] == bcf}
wakefd = most_common(e[4] for e in ev if e[2] in fetch_threads and e[3] == 'read' and e[5] == 8)
print(f'fds: client produce {cpf}, client fetch {ccf}; broker produce {bpf}, fetch {bcf}, log {logfd}, '
      f'wake-up {wakefd}')
def after(t, pred, until=None):
    for e in ev[bisect.bisect_right(times, t):]:
        if until is not None and e[0] > until:
            return None
        if pred(e):
            return e
    return None
def before(t, pred):
    for e in reversed(ev[:bisect.bisect_left(times, t)]):
        if pred(e):
            return e
    return None
WRITES = ('write', 'writev', 'pwrite64')
broker = lambda e: not client(e)
parked, unparked, totals = [], [], []
for ap in (e for e in ev if e[4] == logfd and e[3] in WRITES and broker(e)):
    t = ap[0]
    rd = before(t, lambda e: e[4] == bpf and e[3] == 'read' and broker(e))
    cw = rd and before(rd[0], lambda e: e[1].startswith('kafka-producer') and e[4] == cpf and e[3] == 'writev')
    app = cw and before(cw[0], lambda e: e[1] == 'java' and e[3] == 'write' and e[5] == 8)
    pr = after(t, lambda e: e[4] == bpf and e[3] in WRITES and broker(e))
    sf = after(t, lambda e: e[4] == bcf and e[3] == SENT and broker(e))
    cr = sf and after(sf[0], lambda e: e[1].startswith('e2e-reader') and e[4] == ccf and e[3] == 'read' and e[5] > 8)
    if not (rd and cw and app and pr and cr):
        continue
    common = {'app send() -> request writev (client)': cw[0] - app[0],
              'request writev -> broker read': rd[0] - cw[0],
              'broker read -> appended': t - rd[0],
              'appended -> produce response written': pr[0] - t}
    tail = {f'{SENT} -> consumer read': cr[0] - sf[0], 'app send() -> consumer read': cr[0] - app[0]}
    fetch_read = after(t, lambda e: e[4] == bcf and e[3] == 'read' and broker(e), until=sf[0])
    if fetch_read is not None or sf[5] - framing != ap[5]:
        # No fetch was parked for this batch: it waited for the consumer's next fetch (or went with others).
        unparked.append({**common, f'appended -> {SENT} (a later fetch)': sf[0] - t, **tail})
        continue
    wake = after(t, lambda e: broker(e) and e[4] == wakefd and e[3] == 'write' and e[5] == 8, until=sf[0])
    woke = wake and after(wake[0], lambda e: broker(e) and e[4] == wakefd and e[3] == 'read' and e[5] == 8,
                          until=sf[0])
    row = {**common, f'appended -> {SENT} (the parked fetch)': sf[0] - t}
    if woke:
        row.update({'  appended -> wake-up write': wake[0] - t, '  wake-up write -> woken thread reads it': woke[0] - wake[0],
                    f'  woken -> {SENT}': sf[0] - woke[0]})
    parked.append({**row, **tail})
def table(title, rows):
    print(f'{title}: {len(rows)} batches')
    keys = list(dict.fromkeys(k for r in rows for k in r))
    for k in keys:
        v = sorted(r[k] * 1000 for r in rows if k in r)
        q = lambda p: v[min(len(v) - 1, int(p * len(v)))]
        print(f'  {k:45s} n {len(v):5d}  p50 {q(0.5):7.0f} us  p90 {q(0.9):7.0f}  p99 {q(0.99):7.0f}')
table('appended with the consumer\'s fetch parked, completed by the append', parked)
table('appended with no fetch parked', unparked)
