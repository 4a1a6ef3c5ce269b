/*
 * efi_main.c - the UEFI entry: from the firmware's boot manager (or GRUB's
 * chainloader, or U-Boot's bootefi) to the kernel, with the EFI memory
 * map as the boot information.
 *
 *   1. print through ConOut (the firmware's console) while we may;
 *   2. find the ACPI RSDP and the device tree in the configuration table;
 *   3. let the target put the kernel where it runs (efi_arch_prepare);
 *   4. allocate room for the memory map with a margin (the allocation
 *      itself may split a descriptor), read it with GetMemoryMap;
 *   5. ExitBootServices with the map's key; on EFI_INVALID_PARAMETER the
 *      map changed under us: read it again into the same buffer (no
 *      allocation is allowed any more) and retry, as UEFI 2.10 section
 *      7.4 requires;
 *   6. hand the blob (include/boot/efi.h) to the kernel.
 * Any failure before ExitBootServices is printed and returned to the
 * firmware, which then tries its next boot option: never a hang.
 */
#include "stub.h"

#define EFI_PAGE	4096UL
#define MAP_MARGIN	16	/* spare descriptors for allocations */
#define MAP_TRIES	8

static struct efi_system_table *sys;

void efi_puts(const char *s)
{
	efi_char16_t buf[64];
	unsigned int n = 0;

	if (!sys || !sys->con_out)
		return;
	for (; *s; s++) {
		if (*s == '\n')
			buf[n++] = '\r';
		buf[n++] = (unsigned char)*s;
		if (n >= 62 || !s[1]) {
			buf[n] = 0;
			sys->con_out->output_string(sys->con_out, buf);
			n = 0;
		}
	}
}

void efi_put_hex(uint64_t v)
{
	char buf[19];
	int i = 18;

	buf[i] = '\0';
	do {
		buf[--i] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	buf[--i] = 'x';
	buf[--i] = '0';
	efi_puts(buf + i);
}

efi_status_t efi_fail(efi_status_t status, const char *why)
{
	efi_puts("buddyboot: ");
	efi_puts(why);
	efi_puts(" (status ");
	efi_put_hex(status);
	efi_puts("); not started\n");
	return status;
}

static bool guid_eq(const efi_guid_t *a, efi_guid_t b)
{
	const uint8_t *x = (const uint8_t *)a, *y = (const uint8_t *)&b;

	for (unsigned int i = 0; i < sizeof(b); i++)
		if (x[i] != y[i])
			return false;
	return true;
}

/* The ACPI 2.0 RSDP if there is one, else 1.0's; and the device tree. */
static void find_tables(struct efi_boot_info *info)
{
	for (unsigned long i = 0; i < sys->nr_tables; i++) {
		const struct efi_configuration_table *t = &sys->tables[i];
		uint64_t addr = (uint64_t)(uintptr_t)t->table;

		if (guid_eq(&t->guid, EFI_ACPI_20_TABLE_GUID))
			info->acpi_rsdp = addr;
		else if (guid_eq(&t->guid, EFI_ACPI_10_TABLE_GUID) &&
			 !info->acpi_rsdp)
			info->acpi_rsdp = addr;
		else if (guid_eq(&t->guid, EFI_DTB_TABLE_GUID))
			info->fdt = addr;
	}
}

struct map_buf {
	struct efi_boot_info *info;	/* header, then the descriptors */
	unsigned long pages;
	unsigned long capacity;		/* bytes for descriptors */
	unsigned long key;
};

static efi_status_t read_map(struct map_buf *m)
{
	struct efi_boot_services *bs = sys->boot_services;
	unsigned long size = m->capacity, desc_size = 0;
	uint32_t version = 0;
	efi_status_t st;

	st = bs->get_memory_map(&size, (struct efi_memory_descriptor *)
				((uint8_t *)m->info + EFI_BOOT_INFO_HEADER),
				&m->key, &desc_size, &version);
	if (st != EFI_SUCCESS)
		return st;
	if (!desc_size || size % desc_size || size > 0xffffffffUL)
		return EFI_INVALID_PARAMETER;
	m->info->desc_size = desc_size;
	m->info->desc_version = version;
	m->info->map_size = size;
	m->info->count = size / desc_size;
	return EFI_SUCCESS;
}

/*
 * alloc_map - room for the header and the map as it is now, plus
 * MAP_MARGIN descriptors; more each time GetMemoryMap says it is short.
 */
static efi_status_t alloc_map(struct map_buf *m)
{
	struct efi_boot_services *bs = sys->boot_services;
	unsigned long size = 0, key, desc_size = 0;
	uint32_t version;
	efi_status_t st;

	for (int tries = 0; tries < MAP_TRIES; tries++) {
		size = 0;
		st = bs->get_memory_map(&size, NULL, &key, &desc_size,
					&version);
		if (st != EFI_BUFFER_TOO_SMALL || !desc_size)
			return efi_fail(st, "GetMemoryMap gave no map size");
		m->capacity = size + (MAP_MARGIN << tries) * desc_size;
		m->pages = (EFI_BOOT_INFO_HEADER + m->capacity + EFI_PAGE - 1) /
			   EFI_PAGE;
		uint64_t addr = efi_arch_info_max;

		st = bs->allocate_pages(efi_arch_info_max == ~0ULL ?
					EFI_ALLOCATE_ANY_PAGES :
					EFI_ALLOCATE_MAX_ADDRESS,
					EFI_LOADER_DATA, m->pages, &addr);
		if (st != EFI_SUCCESS)
			return efi_fail(st, "cannot allocate the memory map");
		m->info = (struct efi_boot_info *)(uintptr_t)addr;
		st = read_map(m);
		if (st == EFI_SUCCESS)
			return st;
		bs->free_pages(addr, m->pages);
		if (st != EFI_BUFFER_TOO_SMALL)
			return efi_fail(st, "GetMemoryMap failed");
	}
	return efi_fail(EFI_BUFFER_TOO_SMALL, "the memory map keeps growing");
}

efi_status_t EFIAPI efi_main(efi_handle_t image, struct efi_system_table *st);

efi_status_t EFIAPI efi_main(efi_handle_t image, struct efi_system_table *st)
{
	struct efi_boot_info tables = { 0 };
	struct map_buf m;
	efi_status_t status;

	sys = st;
	efi_puts("buddyboot: EFI entry\n");
	find_tables(&tables);
	efi_puts("buddyboot: ACPI RSDP ");
	efi_put_hex(tables.acpi_rsdp);
	efi_puts(", device tree ");
	efi_put_hex(tables.fdt);
	efi_puts("\n");

	status = efi_arch_prepare(st, &tables);
	if (status != EFI_SUCCESS)
		return status;
	status = alloc_map(&m);
	if (status != EFI_SUCCESS)
		return status;
	efi_puts("buddyboot: memory map at ");
	efi_put_hex((uint64_t)(uintptr_t)m.info);
	efi_puts(", descriptors of ");
	efi_put_hex(m.info->desc_size);
	efi_puts(" bytes; exiting boot services\n");

	/* No console, no allocation from here on. */
	status = read_map(&m);
	for (int tries = 0; status == EFI_SUCCESS && tries < MAP_TRIES; tries++) {
		status = st->boot_services->exit_boot_services(image, m.key);
		if (status != EFI_INVALID_PARAMETER)
			break;
		status = read_map(&m);
	}
	if (status != EFI_SUCCESS) {
		/* Boot services may be half gone: ConOut is not to be trusted. */
		return status;
	}
	sys = NULL;
	m.info->magic = EFI_BOOT_INFO_MAGIC;
	m.info->header_size = EFI_BOOT_INFO_HEADER;
	m.info->acpi_rsdp = tables.acpi_rsdp;
	m.info->fdt = tables.fdt;
	m.info->system_table = (uint64_t)(uintptr_t)st;
	efi_arch_enter((uint64_t)(uintptr_t)m.info);
}
