/*
 * boot_state.c - the test images' boot_observe(): checksums and copies
 * taken before the hand-off, for the integrity cases (see boot_state.h),
 * and counter readings along the boot, for the bench.
 *
 * The boot modules (initrd) are found here directly from the boot info,
 * not through boot/'s readers, so that a reader that forgot one would not
 * also hide it from the test: /chosen linux,initrd-start/end in a DTB, the
 * module list of a PVH start info, the module tags (type 3) of multiboot2.
 */
#include <arch/memory.h>
#include <arch/test_services.h>
#include <boot/bytes.h>
#include <boot/efi.h>
#include <boot/fdt.h>
#include <boot/reserve.h>
#include <lib/printk.h>
#include <lib/string.h>
#include <selftest/boot_state.h>
#include <selftest/selftest.h>
#include <smp/smp.h>

struct selftest_boot_state selftest_boot_state;
struct boot_facts selftest_boot_facts;

#define FNV_OFFSET	0xcbf29ce484222325ULL
#define FNV_PRIME	0x100000001b3ULL

uint64_t selftest_checksum(phys_addr_t base, phys_addr_t size)
{
	const uint8_t *p = phys_to_virt(base);
	uint64_t h = FNV_OFFSET ^ size;
	phys_addr_t i = 0;

	/* Byte loads up to an 8-byte boundary, then aligned words. */
	for (; i < size && ((uintptr_t)(p + i) & 7); i++)
		h = (h ^ p[i]) * FNV_PRIME;
	for (; i + 8 <= size; i += 8)
		h = (h ^ *(const uint64_t *)(p + i)) * FNV_PRIME;
	for (; i < size; i++)
		h = (h ^ p[i]) * FNV_PRIME;
	return h;
}

static void record_blob(struct boot_blob *b, phys_addr_t base,
			phys_addr_t size)
{
	b->base = base;
	b->size = size;
	b->sum = selftest_checksum(base, size);
}

static void keep(phys_addr_t base, phys_addr_t size)
{
	struct selftest_boot_state *s = &selftest_boot_state;

	if (size && s->nr_keep < BOOT_STATE_MAX_KEEP)
		s->keep[s->nr_keep++] = (struct boot_span){ base, base + size };
}

const struct boot_span *selftest_kept_span(phys_addr_t base, phys_addr_t end)
{
	const struct selftest_boot_state *s = &selftest_boot_state;

	for (unsigned int i = 0; i < s->nr_keep; i++)
		if (s->keep[i].base < end && base < s->keep[i].end)
			return &s->keep[i];
	return NULL;
}

static void record_module(phys_addr_t base, phys_addr_t size)
{
	struct selftest_boot_state *s = &selftest_boot_state;

	keep(base, size);
	if (s->nr_modules == BOOT_STATE_MAX_MODULES) {
		s->modules_unchecked++;
		return;
	}
	record_blob(&s->modules[s->nr_modules++], base, size);
}

static void fdt_record(phys_addr_t info)
{
	const void *blob = phys_to_virt(info);
	uint32_t size = fdt_header_totalsize(blob), len_s, len_e;
	char error[BOOT_ERROR_LEN];
	const void *ps, *pe;
	struct fdt fdt;

	if (!size || fdt_open(&fdt, blob, size, error))
		return;
	record_blob(&selftest_boot_state.info, info, size);
	for (int n = fdt_first_child(&fdt, fdt.root); n >= 0;
	     n = fdt_next_child(&fdt, n)) {
		if (strncmp(fdt_node_name(&fdt, n), "chosen", 7))
			continue;
		ps = fdt_getprop(&fdt, n, "linux,initrd-start", &len_s);
		pe = fdt_getprop(&fdt, n, "linux,initrd-end", &len_e);
		if (ps && pe && (len_s == 4 || len_s == 8) &&
		    (len_e == 4 || len_e == 8)) {
			uint64_t start = fdt_read_cells(ps, len_s / 4);
			uint64_t end = fdt_read_cells(pe, len_e / 4);

			if (end > start)
				record_module(start, end - start);
		}
	}
}

/* hvm_start_info: 12 nr_modules, 16 modlist_paddr; entries of 32 bytes. */
static void pvh_record(phys_addr_t info)
{
	const uint8_t *si = phys_to_virt(info);
	uint32_t version = load_le32(si + 4), n = load_le32(si + 12);
	const uint8_t *ml = phys_to_virt(load_le64(si + 16));

	record_blob(&selftest_boot_state.info, info, version ? 56 : 40);
	for (uint32_t i = 0; i < n && i < 64; i++)
		record_module(load_le64(ml + 32 * i), load_le64(ml + 32 * i + 8));
}

/* Multiboot2: tags from offset 8, 8-byte aligned; type 3 is a module. */
static void mb2_record(phys_addr_t info)
{
	const uint8_t *mbi = phys_to_virt(info);
	uint32_t total = load_le32(mbi), at = 8;

	record_blob(&selftest_boot_state.info, info, total);
	while (at + 8 <= total) {
		uint32_t type = load_le32(mbi + at), size = load_le32(mbi + at + 4);

		if (type == 0 || size < 8)
			break;
		if (type == 3 && size >= 16) {
			uint32_t start = load_le32(mbi + at + 8);
			uint32_t end = load_le32(mbi + at + 12);

			if (end > start)
				record_module(start, end - start);
		}
		at += ALIGN_UP(size, 8);
	}
}

/* A sorted, merged copy of the reservations recorded with reasons. */
static void copy_reservations(void)
{
	struct selftest_boot_state *s = &selftest_boot_state;
	struct boot_span *r = s->reserved;
	unsigned int n = 0;

	for (unsigned int i = 0; i < boot_reservation_count(); i++) {
		const struct boot_reservation *b = boot_reservation_get(i);
		struct boot_span new = { b->base, b->base + b->size };
		unsigned int j = n++;

		for (; j > 0 && r[j - 1].base > new.base; j--)
			r[j] = r[j - 1];
		r[j] = new;
	}
	s->nr_reserved = 0;
	for (unsigned int i = 0; i < n; i++) {
		unsigned int last = s->nr_reserved - 1;

		if (s->nr_reserved && r[i].base <= r[last].end)
			r[last].end = MAX(r[last].end, r[i].end);
		else
			r[s->nr_reserved++] = r[i];
	}
}

const struct boot_span *selftest_reserved_span(phys_addr_t base,
					       phys_addr_t end)
{
	const struct selftest_boot_state *s = &selftest_boot_state;
	unsigned int lo = 0, hi = s->nr_reserved;

	/* The first span ending above @base; the spans are disjoint. */
	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;

		if (s->reserved[mid].end <= base)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < s->nr_reserved && s->reserved[lo].base < end)
		return &s->reserved[lo];
	return NULL;
}

static void record_boot_state(enum boot_protocol proto, phys_addr_t info)
{
	struct selftest_boot_state *s = &selftest_boot_state;
	uint64_t t0 = arch_counter();

	s->proto = proto;
	record_blob(&s->text, virt_to_phys(_start), _etext - _start);
	if (proto == BOOT_PROTO_FDT)
		fdt_record(info);
	else if (proto == BOOT_PROTO_PVH)
		pvh_record(info);
	else if (proto == BOOT_PROTO_MULTIBOOT2)
		mb2_record(info);
	else if (proto == BOOT_PROTO_EFI)
		record_blob(&s->info, info,
			    efi_boot_info_size(phys_to_virt(info)));
	keep(virt_to_phys(_start), _end - _start);
	keep(virt_to_phys(__boot_stack_bottom),
	     __boot_stack_top - __boot_stack_bottom);
	keep(s->info.base, s->info.size);
	copy_reservations();
	s->firmware_err = arch_firmware_version(&s->firmware_version);
	s->recorded = true;
	s->record_ticks = arch_counter() - t0;
}

void boot_observe(enum boot_point point, const struct boot_facts *facts)
{
	struct selftest_boot_state *s = &selftest_boot_state;
	static uint64_t smp_start;

	switch (point) {
	case BOOT_ENTERED:
		s->counter_entry = arch_counter();
		break;
	case BOOT_BEFORE_HANDOFF:
		record_boot_state(facts->proto, facts->info);
		break;
	case BOOT_ALLOCATOR_READY:
		s->counter_allocator_ready = arch_counter();
		break;
	case BOOT_SMP_STARTING:
		smp_start = arch_counter();
		break;
	case BOOT_SMP_ONLINE:
		s->counter_smp_online = arch_counter();
		printk("smp: %u CPUs online, %llu counter ticks after "
		       "boot_main()'s entry, %llu of them in smp_init()\n",
		       num_online_cpus(),
		       (unsigned long long)(s->counter_smp_online -
					    s->counter_entry),
		       (unsigned long long)(s->counter_smp_online - smp_start));
		break;
	}
	selftest_boot_facts = *facts;
}
