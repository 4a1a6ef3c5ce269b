/*
 * efi_api.h - the part of the UEFI firmware interface the EFI entry calls
 * (UEFI 2.10: 4.3 system table, 4.4 boot services, 4.6 configuration
 * table, 12.4 simple text output). Only what is used is named; the
 * rest of each table is padding of the right size, so that the offsets
 * are the specification's.
 *
 * Firmware calls use the platform's UEFI calling convention: the
 * Microsoft x64 one on x86_64 (EFIAPI), the standard one elsewhere.
 */
#ifndef BOOT_EFI_API_H
#define BOOT_EFI_API_H

#include <lib/types.h>

#ifdef __x86_64__
#define EFIAPI	__attribute__((ms_abi))
#else
#define EFIAPI
#endif

typedef unsigned long efi_status_t;
typedef void *efi_handle_t;
typedef uint16_t efi_char16_t;

#define EFI_ERROR_BIT		(1UL << (sizeof(long) * 8 - 1))
#define EFI_SUCCESS		0UL
#define EFI_LOAD_ERROR		(EFI_ERROR_BIT | 1)
#define EFI_INVALID_PARAMETER	(EFI_ERROR_BIT | 2)
#define EFI_UNSUPPORTED		(EFI_ERROR_BIT | 3)
#define EFI_BUFFER_TOO_SMALL	(EFI_ERROR_BIT | 5)
#define EFI_OUT_OF_RESOURCES	(EFI_ERROR_BIT | 9)
#define EFI_NOT_FOUND		(EFI_ERROR_BIT | 14)

/* EFI_ALLOCATE_TYPE */
enum efi_allocate_type {
	EFI_ALLOCATE_ANY_PAGES,
	EFI_ALLOCATE_MAX_ADDRESS,
	EFI_ALLOCATE_ADDRESS,
};

typedef struct {
	uint32_t a;
	uint16_t b, c;
	uint8_t d[8];
} efi_guid_t;

#define EFI_GUID(a, b, c, d...) ((efi_guid_t){ a, b, c, { d } })
#define EFI_ACPI_20_TABLE_GUID EFI_GUID(0x8868e871, 0xe4f1, 0x11d3, \
	0xbc, 0x22, 0x00, 0x80, 0xc7, 0x3c, 0x88, 0x81)
#define EFI_ACPI_10_TABLE_GUID EFI_GUID(0xeb9d2d30, 0x2d88, 0x11d3, \
	0x9a, 0x16, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d)
#define EFI_DTB_TABLE_GUID EFI_GUID(0xb1b621d5, 0xf19c, 0x41a5, \
	0x83, 0x0b, 0xd9, 0x15, 0x2c, 0x69, 0xaa, 0xe0)

struct efi_table_header {
	uint64_t signature;
	uint32_t revision;
	uint32_t header_size;
	uint32_t crc32;
	uint32_t reserved;
};

struct efi_simple_text_output {
	void *reset;
	efi_status_t (EFIAPI *output_string)(struct efi_simple_text_output *,
					     const efi_char16_t *);
	/* the rest is not used */
};

struct efi_memory_descriptor;

struct efi_boot_services {
	struct efi_table_header hdr;
	void *raise_tpl, *restore_tpl;
	efi_status_t (EFIAPI *allocate_pages)(int type, int memory_type,
					      unsigned long pages,
					      uint64_t *address);
	efi_status_t (EFIAPI *free_pages)(uint64_t address,
					  unsigned long pages);
	efi_status_t (EFIAPI *get_memory_map)(unsigned long *map_size,
					      struct efi_memory_descriptor *map,
					      unsigned long *map_key,
					      unsigned long *desc_size,
					      uint32_t *desc_version);
	void *allocate_pool, *free_pool;
	void *create_event, *set_timer, *wait_for_event, *signal_event,
	     *close_event, *check_event;
	void *install_protocol_interface, *reinstall_protocol_interface,
	     *uninstall_protocol_interface, *handle_protocol, *reserved,
	     *register_protocol_notify, *locate_handle, *locate_device_path,
	     *install_configuration_table;
	void *load_image, *start_image, *exit, *unload_image;
	efi_status_t (EFIAPI *exit_boot_services)(efi_handle_t image,
						  unsigned long map_key);
	/* the rest is not used */
};

struct efi_configuration_table {
	efi_guid_t guid;
	void *table;
};

struct efi_system_table {
	struct efi_table_header hdr;
	efi_char16_t *firmware_vendor;
	uint32_t firmware_revision;
	efi_handle_t console_in_handle;
	void *con_in;
	efi_handle_t console_out_handle;
	struct efi_simple_text_output *con_out;
	efi_handle_t standard_error_handle;
	struct efi_simple_text_output *std_err;
	void *runtime_services;
	struct efi_boot_services *boot_services;
	unsigned long nr_tables;
	struct efi_configuration_table *tables;
};

#endif /* BOOT_EFI_API_H */
