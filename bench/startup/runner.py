"""Process runner of bench/startup.ts: one JSON job per stdin line, one JSON result per stdout line.

Measures each child's wall time (spawn to exit, or to the answer of a request for `mcp` jobs) and
its CPU time (user + system, microsecond resolution, from getrusage(RUSAGE_CHILDREN) around the
child's whole life). Node has no per-child CPU accounting, and GNU time prints 10 ms steps.
"""
import json, os, resource, subprocess, sys, time

def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime

def run(job):
    c0 = cpu()
    t0 = time.perf_counter()
    p = subprocess.Popen(job['argv'], cwd=job['cwd'], env=job['env'], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = p.communicate(job.get('input', '').encode())
    wall = time.perf_counter() - t0
    return {'wall_ms': wall * 1000, 'cpu_ms': (cpu() - c0) * 1000, 'status': p.returncode,
            'stdout': out.decode('utf8', 'replace'), 'stderr': err.decode('utf8', 'replace')}

def mcp(job):
    """Sends each request line, waiting for the answer of each one with an id; wall = last answer."""
    c0 = cpu()
    t0 = time.perf_counter()
    p = subprocess.Popen(job['argv'], cwd=job['cwd'], env=job['env'], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    last = ''
    for msg in job['messages']:
        p.stdin.write((json.dumps(msg) + '\n').encode())
        p.stdin.flush()
        if 'id' not in msg:
            continue
        while True:
            line = p.stdout.readline()
            if not line:
                raise RuntimeError('server closed stdout before answering %r' % msg.get('method'))
            answer = json.loads(line)
            if answer.get('id') == msg['id']:
                last = line.decode('utf8', 'replace')
                break
    wall = time.perf_counter() - t0
    p.stdin.close()
    p.stdout.read()
    p.wait()
    return {'wall_ms': wall * 1000, 'cpu_ms': (cpu() - c0) * 1000, 'status': p.returncode,
            'stdout': last, 'stderr': ''}

for line in sys.stdin:
    job = json.loads(line)
    try:
        res = mcp(job) if job.get('mode') == 'mcp' else run(job)
    except Exception as e:  # reported to the bench, which fails with it
        res = {'error': str(e)}
    sys.stdout.write(json.dumps(res) + '\n')
    sys.stdout.flush()
