/*
 * main.c - the benchmark program's entry: options, CPU pinning, output.
 *
 *   bench-<allocator> <scenario> [key=value ...]
 *
 * scenarios: info, pair, sweep, mixed, frag, handoff (see bench/scenarios.c
 * and bench/handoff.c for what each measures and which keys it reads),
 * threads and zonelock (bench/threads.c), kpair and workload (small
 * objects, bench/small.c).
 * keys: reps, iters, blocks, pages, gib, seed, order, heap=fresh|used,
 * present=0|1, threads, cross=0|1, control=0|1, pin=none|same|apart, work,
 * memory=0|1.
 *
 * The process pins itself to one CPU (BENCH_CPU, default the last one) so
 * that the timed loops are not migrated half way through.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "bench.h"
#include "map.h"

void bench_die(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "bench: %s: ", bench_allocator.name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

void bench_emit(const char *scenario, const char *variant, int order,
		const char *metric, unsigned int rep, double value)
{
	printf("%s\t%s\t%s\t%d\t%s\t%u\t%.6g\n", bench_allocator.name, scenario,
	       variant, order, metric, rep, value);
}

void bench_emit_info(const char *key, const char *value)
{
	printf("%s\tinfo\t-\t-1\t%s\t0\t%s\n", bench_allocator.name, key,
	       value);
}

uint64_t bench_map(unsigned long bytes, unsigned long align)
{
	unsigned long len = bytes + align;
	uintptr_t p;
	void *m;

	m = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m == MAP_FAILED)
		bench_die("mmap of %lu MiB: %s", len >> 20, strerror(errno));
	p = ((uintptr_t)m + align - 1) & ~(uintptr_t)(align - 1);
	return p;
}

unsigned long bench_rss_kib(void)
{
	unsigned long kib = 0;
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		bench_die("/proc/self/status: %s", strerror(errno));
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %lu kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

static void pin_cpu(void)
{
	const char *env = getenv("BENCH_CPU");
	long cpu = env ? atol(env) : sysconf(_SC_NPROCESSORS_ONLN) - 1;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu < 0 ? 0 : cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		bench_die("cannot pin to CPU %ld: %s", cpu, strerror(errno));
}

static unsigned long number(const char *key, const char *val)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(val, &end, 0);
	if (errno || end == val || *end)
		bench_die("%s=%s is not a number", key, val);
	return v;
}

/* pin=none|same|apart: BENCH_PIN_NONE, _SAME, _APART, in that order. */
static int pin_mode(const char *val)
{
	static const char *const modes[] = { "none", "same", "apart" };

	for (int m = 0; m < (int)(sizeof(modes) / sizeof(modes[0])); m++)
		if (!strcmp(val, modes[m]))
			return m;
	bench_die("pin=%s: none, same or apart", val);
}

static void parse(struct bench_opts *o, int argc, char **argv)
{
	for (int i = 2; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		const char *val = eq ? eq + 1 : "";

		if (!eq)
			bench_die("%s: expected key=value", argv[i]);
		*eq = '\0';
		if (!strcmp(argv[i], "reps"))
			o->reps = number(argv[i], val);
		else if (!strcmp(argv[i], "iters"))
			o->iters = number(argv[i], val);
		else if (!strcmp(argv[i], "blocks"))
			o->blocks = number(argv[i], val);
		else if (!strcmp(argv[i], "pages"))
			o->pages = number(argv[i], val);
		else if (!strcmp(argv[i], "gib"))
			o->gib = number(argv[i], val);
		else if (!strcmp(argv[i], "seed"))
			o->seed = number(argv[i], val);
		else if (!strcmp(argv[i], "order"))
			o->order = (int)number(argv[i], val);
		else if (!strcmp(argv[i], "threads"))
			o->threads = (unsigned int)number(argv[i], val);
		else if (!strcmp(argv[i], "work"))
			o->work = val;
		else if (!strcmp(argv[i], "present"))
			o->present = number(argv[i], val);
		else if (!strcmp(argv[i], "nodes"))
			o->nodes = (unsigned int)number(argv[i], val);
		else if (!strcmp(argv[i], "cross"))
			o->cross = number(argv[i], val);
		else if (!strcmp(argv[i], "control"))
			o->control = number(argv[i], val);
		else if (!strcmp(argv[i], "memory"))
			o->memory = number(argv[i], val);
		else if (!strcmp(argv[i], "pin"))
			o->pin = pin_mode(val);
		else if (!strcmp(argv[i], "heap") &&
			 (!strcmp(val, "fresh") || !strcmp(val, "used")))
			o->used = !strcmp(val, "used");
		else
			bench_die("unknown option %s=%s", argv[i], val);
	}
	if (!o->reps || !o->iters || !o->blocks)
		bench_die("reps, iters and blocks must be at least 1");
	/* kpair's order picks a size, 8 << order bytes: it checks that. */
	if (strcmp(argv[1], "kpair") && o->order > (int)bench_allocator.max_order)
		bench_die("order=%d is above this build's largest order %u",
			  o->order, bench_allocator.max_order);
}

static const struct {
	const char *name;
	int (*run)(const struct bench_opts *o);
} scenarios[] = {
	{"pair", bench_pair},	    {"sweep", bench_sweep},
	{"mixed", bench_mixed},	    {"frag", bench_frag},
	{"handoff", bench_handoff}, {"threads", bench_threads},
	{"zonelock", bench_zonelock}, {"kpair", bench_kpair},
	{"workload", bench_workload}, {"nodepair", bench_nodepair},
	{"contig", bench_contig},
};

int main(int argc, char **argv)
{
	struct bench_opts o = {
		.reps = 11,
		.iters = 1000000,
		.blocks = 256,
		.pages = 32768,
		.gib = 1,
		.seed = 20240607,
		.order = -1,
		.work = "",
	};

	if (argc < 2)
		bench_die("usage: %s info|pair|sweep|mixed|frag|handoff|kpair|workload "
			  "[key=value ...]",
			  argv[0]);
	parse(&o, argc, argv);
	pin_cpu();
	if (!strcmp(argv[1], "info")) {
		bench_allocator.describe(bench_emit_info);
		return 0;
	}
	for (size_t i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++)
		if (!strcmp(argv[1], scenarios[i].name))
			return scenarios[i].run(&o);
	bench_die("unknown scenario %s", argv[1]);
}
