"""stats.py - load the benchmark samples and summarise them.

raw.tsv holds one sample a line (allocator scenario variant order metric rep
value, see bench/bench.h); a summary is the median with the spread of the
repetitions: quartiles and the full min-max range.
"""
import collections
import os
import statistics


class Summary:
    def __init__(self, values):
        v = sorted(values)
        self.n = len(v)
        self.median = statistics.median(v)
        self.min, self.max = v[0], v[-1]
        if len(v) >= 4:
            self.q1, _, self.q3 = statistics.quantiles(v, n=4,
                                                       method="inclusive")
        else:
            self.q1, self.q3 = self.min, self.max


class Results:
    """Samples keyed by (allocator, scenario, variant, order, metric)."""

    def __init__(self, outdir):
        self.samples = collections.defaultdict(list)
        self.info = collections.defaultdict(dict)
        with open(os.path.join(outdir, "raw.tsv")) as f:
            for line in f:
                a, scen, var, order, metric, _rep, value = \
                    line.rstrip("\n").split("\t")
                if scen == "info":
                    self.info[a][metric] = value
                    continue
                self.samples[(a, scen, var, int(order), metric)].append(
                    float(value))
        self.machine = {}
        with open(os.path.join(outdir, "machine.tsv")) as f:
            for line in f:
                k, _, v = line.rstrip("\n").partition("\t")
                self.machine[k] = v
        self.runs = []
        with open(os.path.join(outdir, "runs.tsv")) as f:
            for line in f:
                cmd, secs, status = line.rstrip("\n").split("\t")
                self.runs.append((cmd, float(secs), int(status)))

    def get(self, alloc, scen, var, order, metric):
        """The Summary of one measurement, or None when it was not run."""
        v = self.samples.get((alloc, scen, var, order, metric))
        return Summary(v) if v else None

    def median(self, *key):
        s = self.get(*key)
        return s.median if s else None

    def variants(self, scen):
        return sorted({k[2] for k in self.samples if k[1] == scen},
                      key=lambda v: (len(v), v))

    def orders(self, alloc, scen, var, metric):
        return sorted(k[3] for k in self.samples
                      if k[:3] == (alloc, scen, var) and k[4] == metric)
