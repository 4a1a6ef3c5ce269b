/*
 * acpi_slit.c - the System Locality Information Table (signature "SLIT",
 * ACPI 6.5, 5.2.17): the relative distance between proximity domains.
 *
 *   header (36 bytes)  36 u64 number of localities n
 *   44 n * n u8 entries: row i, column j is the distance from domain i
 *   to domain j; 10 to itself, 255 unreachable.
 *
 * Policy: only the domains the SRAT named are read (acpi_srat_read()
 * first); each must be covered by the matrix, and their entries checked
 * (10 on the diagonal, 11..254 elsewhere) before one is taken, so a SLIT
 * that is refused leaves every distance at its default.
 */
#include <boot/acpi.h>
#include <boot/bytes.h>
#include <boot/numa.h>
#include <lib/errno.h>
#include <lib/string.h>

#define SLIT_ENTRIES		44u
#define SLIT_MAX_LOCALITIES	4096u	/* 16 MiB of entries: ACPI_TABLE_MAX */
#define SLIT_UNREACHABLE	255

int acpi_slit_read(struct acpi_tables *t, struct boot_numa *numa)
{
	const uint8_t *slit;
	uint32_t len;
	int err = acpi_find_table(t, "SLIT", 0, &slit, &len);

	return err ?: acpi_slit_parse(t, slit, len, numa);
}

int acpi_slit_parse(struct acpi_tables *t, const uint8_t *slit, uint32_t len,
		    struct boot_numa *numa)
{
	uint64_t n;
	if (len < SLIT_ENTRIES)
		return acpi_error(t, -EINVAL, "acpi: SLIT length %u is smaller "
				  "than its %u-byte header", len, SLIT_ENTRIES);
	n = load_le64(slit + 36);
	if (n > SLIT_MAX_LOCALITIES || SLIT_ENTRIES + n * n != len)
		return acpi_error(t, -EINVAL, "acpi: SLIT of %llu localities "
				  "has length %u, not %u + %llu * %llu",
				  (unsigned long long)n, len, SLIT_ENTRIES,
				  (unsigned long long)n, (unsigned long long)n);
	for (unsigned int i = 0; i < numa->nr_pxm; i++)
		if (numa->pxm[i] >= n)
			return acpi_error(t, -EINVAL, "acpi: SLIT has %llu "
					  "localities: none for proximity "
					  "domain %u, which the SRAT names",
					  (unsigned long long)n, numa->pxm[i]);
	for (unsigned int i = 0; i < numa->nr_pxm; i++) {
		for (unsigned int j = 0; j < numa->nr_pxm; j++) {
			uint8_t d = slit[SLIT_ENTRIES + numa->pxm[i] * n +
					 numa->pxm[j]];

			if (i == j ? d != LOCAL_DISTANCE :
			    d <= LOCAL_DISTANCE || d == SLIT_UNREACHABLE)
				return acpi_error(t, -EINVAL, "acpi: SLIT "
					"distance %u from domain %u to "
					"domain %u is invalid (itself: %d; "
					"others: %d..%d)", d, numa->pxm[i],
					numa->pxm[j], LOCAL_DISTANCE,
					LOCAL_DISTANCE + 1, DISTANCE_MAX);
		}
	}
	for (unsigned int i = 0; i < numa->nr_pxm; i++)
		for (unsigned int j = 0; j < numa->nr_pxm; j++)
			numa->dist[i][j] = slit[SLIT_ENTRIES +
						numa->pxm[i] * n + numa->pxm[j]];
	numa->dist_nodes = numa->nr_pxm;
	return 0;
}
