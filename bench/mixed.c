/*
 * mixed.c - a random mixed-order workload from a fixed seed.
 *
 * @blocks slots; each operation picks a slot at random: an empty slot gets
 * a block of a random order, a full one is freed. The heap settles at about
 * half the slots held. The sequence is made before timing, from the seed,
 * so every allocator runs exactly the same operations.
 *
 * The order mix, in thousandths, models a kernel's page traffic: mostly
 * single pages (page tables, buffers, slab refills), a steady share of
 * orders 1 to 3 (slabs of larger objects; 16 KiB stacks are order 2), and a
 * thin tail up to 2 MiB huge pages (order 9) and order 10.
 */
#include <stdlib.h>
#include "adapter.h"

static const unsigned int mix[] = {
	600, 150, 100, 80, 30, 15, 10, 5, 4, 5, 1, /* orders 0..10 */
};
#define MIX_ORDERS (sizeof(mix) / sizeof(mix[0]))

struct op {
	uint32_t slot;
	uint8_t order;
	bool free;
};

static unsigned int pick_order(uint64_t *seed)
{
	unsigned int r = bench_rand(seed) % 1000, order = 0;

	while (r >= mix[order]) {
		r -= mix[order];
		order++;
	}
	return order < bench_allocator.max_order ? order
						 : bench_allocator.max_order;
}

/* Make the sequence; return the most pages it ever holds at once. */
static unsigned long make_ops(struct op *ops, unsigned long nops,
			      unsigned long nslots, uint64_t seed,
			      unsigned long *allocs)
{
	int8_t *slot_order = malloc(nslots);
	unsigned long live = 0, peak = 0;

	if (!slot_order)
		bench_die("mixed: no memory for %lu slots", nslots);
	for (unsigned long s = 0; s < nslots; s++)
		slot_order[s] = -1;
	for (unsigned long i = 0; i < nops; i++) {
		uint32_t s = bench_rand(&seed) % nslots;

		ops[i].slot = s;
		ops[i].free = slot_order[s] >= 0;
		if (ops[i].free) {
			ops[i].order = slot_order[s];
			live -= 1UL << slot_order[s];
			slot_order[s] = -1;
			continue;
		}
		ops[i].order = pick_order(&seed);
		slot_order[s] = ops[i].order;
		live += 1UL << ops[i].order;
		allocs[ops[i].order]++;
		if (live > peak)
			peak = live;
	}
	free(slot_order);
	return peak;
}

int bench_mixed(const struct bench_opts *o)
{
	unsigned long allocs[MIX_ORDERS] = {0}, peak;
	struct op *ops = calloc(o->iters, sizeof(*ops));
	void **slot = calloc(o->blocks, sizeof(*slot));
	long base;

	if (!ops || !slot)
		bench_die("mixed: no memory for %lu operations", o->iters);
	peak = make_ops(ops, o->iters, o->blocks, o->seed, allocs);
	/* Room for the peak four times over: a buddy heap fragments. */
	base = bench_fresh_heap(4 * peak);
	for (unsigned int order = 0; order < MIX_ORDERS; order++)
		bench_emit("mixed", "seed", order, "allocs", 0, allocs[order]);
	bench_emit("mixed", "seed", -1, "peak_pages", 0, peak);
	for (unsigned int rep = 0; rep <= o->reps; rep++) {
		uint64_t t0 = bench_now_ns();

		for (unsigned long i = 0; i < o->iters; i++) {
			const struct op *op = &ops[i];

			if (op->free) {
				bench_free(slot[op->slot], op->order);
				slot[op->slot] = NULL;
				continue;
			}
			slot[op->slot] = bench_alloc(op->order);
			if (!slot[op->slot])
				bench_die("mixed: out of memory at op %lu", i);
			bench_keep(slot[op->slot]);
		}
		if (rep)
			bench_emit("mixed", "seed", -1, "op_ns", rep,
				   (double)(bench_now_ns() - t0) /
					   (double)o->iters);
		/*
		 * Start every rep from an empty heap, untimed. Walking back,
		 * the first op met for a slot is its last, so a slot still
		 * held is freed with the order it was last given.
		 */
		for (unsigned long i = o->iters; i-- > 0;)
			if (!ops[i].free && slot[ops[i].slot]) {
				bench_free(slot[ops[i].slot], ops[i].order);
				slot[ops[i].slot] = NULL;
			}
		bench_check_restored(base, "mixed", -1);
	}
	free(slot);
	free(ops);
	return 0;
}
