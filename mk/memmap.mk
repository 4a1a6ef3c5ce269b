# memmap.mk - the boot-info readers on the host: the memmap tool, their
# unit tests, the fixture checks and the fuzzers.
#
#   make host          also builds build/host/memmap
#   make test-host     also runs the boot suites below
#   make fuzz          also runs fuzz_fdt, fuzz_multiboot2, fuzz_pvh,
#                      fuzz_efi and fuzz_acpi for
#                      FUZZ_SECONDS each (host.mk's fuzz target; these join
#                      it through FUZZ_TARGETS)
#   make check-dtb DTB=file...   check memmap --regions against dtc's
#                      reading of any DTB (tests/host/boot/dtb_expect.py)
#   make check-acpi ACPI=dir...  check memmap --madt against iasl's reading
#                      of a machine's MADT, SRAT and SLIT (acpi_expect.py)
#
# Built with host.mk's variants: boot/*.c (but main.c, memory.c and
# cpus.c and acpi_phys.c, which need the kernel's linker symbols or
# physical memory) and tools/memmap/*.c compile through its pattern rules
# into build/host/<variant>/ and link with that variant's libmm.a.

BOOT_HOST_SRCS	:= $(filter-out boot/main.c boot/memory.c boot/cpus.c boot/acpi_phys.c boot/efi_boot.c,$(sort $(wildcard boot/*.c)))
MEMMAP_SRCS	:= $(BOOT_HOST_SRCS) $(sort $(wildcard tools/memmap/*.c))
BOOT_TEST_LIB	:= tests/host/boot/boot_test.c tests/host/boot/fdt_builder.c \
		   tests/host/mm/harness.c
BOOT_FIXTURES	:= $(HOST_DIR)/fixtures
MEMMAP		:= $(HOST_DIR)/memmap
MEMMAP_ASAN	:= $(HOST_DIR)/asan/memmap

host_objs = $(patsubst %.c,$(HOST_DIR)/$(1)/%.o,$(2))

$(MEMMAP): $(call host_objs,plain,$(MEMMAP_SRCS)) $(HOST_DIR)/plain/libmm.a
	$(Q)echo "  HOSTLD  $@"
	$(Q)$(HOST_CC) -o $@ $^

$(MEMMAP_ASAN): $(call host_objs,asan,$(MEMMAP_SRCS)) $(HOST_DIR)/asan/libmm.a
	$(Q)echo "  HOSTLD  $@"
	$(Q)$(HOST_CC) $(SAN_FLAGS) -o $@ $^

# $(call boot_test,name,main source): a KTAP unit test under ASan+UBSan
define boot_test
$(HOST_DIR)/tests/$(1): $(call host_objs,asan,$(2) $(BOOT_TEST_LIB) $(BOOT_HOST_SRCS)) $(HOST_DIR)/asan/libmm.a
	@mkdir -p $$(dir $$@)
	$(Q)echo "  HOSTLD  $$@"
	$(Q)$(HOST_CC) $(SAN_FLAGS) -o $$@ $$^
BOOT_TEST_BINS += $(HOST_DIR)/tests/$(1)
BOOT_SUITES += host-$(1)=$(HOST_DIR)/tests/$(1)
endef

$(eval $(call boot_test,boot-fdt,tests/host/boot/test_fdt.c))
$(eval $(call boot_test,boot-fdt-cpus,tests/host/boot/test_fdt_cpus.c))
$(eval $(call boot_test,boot-x86-info,tests/host/boot/test_x86_info.c))
$(eval $(call boot_test,boot-reserve,tests/host/boot/test_reserve.c))
$(eval $(call boot_test,boot-efi,tests/host/boot/test_efi.c))
$(eval $(call boot_test,boot-numa,tests/host/boot/test_numa.c))
$(eval $(call boot_test,boot-fdt-path,tests/host/boot/test_fdt_path.c))
$(eval $(call boot_test,boot-gic,tests/host/boot/test_gic.c))

# The ACPI reader: its test reads QEMU's captured tables, so it runs from
# a script that names their folder.
ACPI_FIXTURES	:= $(sort $(wildcard tests/fixtures/acpi/*.bin))
$(HOST_DIR)/tests/boot-acpi: $(call host_objs,asan,tests/host/boot/test_acpi.c tests/host/boot/acpi_snapshot.c $(BOOT_TEST_LIB) $(BOOT_HOST_SRCS)) $(HOST_DIR)/asan/libmm.a
	@mkdir -p $(dir $@)
	$(Q)echo "  HOSTLD  $@"
	$(Q)$(HOST_CC) $(SAN_FLAGS) -o $@ $^

# Hand-written edge cases: tests/fixtures/dts/*.dts, compiled with dtc.
BOOT_DTS_DTBS	:= $(patsubst tests/fixtures/dts/%.dts,$(BOOT_FIXTURES)/dts/%.dtb,\
		     $(sort $(wildcard tests/fixtures/dts/*.dts)))
$(BOOT_FIXTURES)/dts/%.dtb: tests/fixtures/dts/%.dts
	@mkdir -p $(dir $@)
	$(Q)echo "  DTC     $@"
	$(Q)dtc -q -I dts -O dtb -o $@ $<

# ACPI tables of whole machines, as /sys/firmware/acpi/tables/ holds them
# (APIC, SRAT, SLIT), a folder per machine: compiled by iasl from
# tests/fixtures/acpi/iasl/*/*.asl, iasl's own templates (`iasl -T`), and
# captured ones (tests/fixtures/acpi/captured/*/APIC).
HOST_PACKAGES	+= acpica-tools
ACPI_IASL_SRCS	:= $(sort $(wildcard tests/fixtures/acpi/iasl/*/*.asl))
ACPI_IASL_DIR	:= $(BOOT_FIXTURES)/acpi
acpi_table_name	= $(shell echo $(basename $(notdir $(1))) | tr a-z A-Z)
ACPI_IASL_TABLES := $(foreach f,$(ACPI_IASL_SRCS),$(ACPI_IASL_DIR)/$(notdir \
		    $(patsubst %/,%,$(dir $(f))))/$(call acpi_table_name,$(f)))
ACPI_MACHINES	:= $(sort $(dir $(ACPI_IASL_TABLES))) \
		   $(ACPI_IASL_DIR)/iasl-templates/ \
		   $(sort $(dir $(wildcard tests/fixtures/acpi/captured/*/APIC)))
define acpi_iasl_table
$(ACPI_IASL_DIR)/$(notdir $(patsubst %/,%,$(dir $(1))))/$(call acpi_table_name,$(1)): $(1)
	@mkdir -p $$(dir $$@)
	$(Q)echo "  IASL    $$@"
	$(Q)iasl -ve -p $$@-tmp $$< >/dev/null && mv $$@-tmp.aml $$@
endef
$(foreach f,$(ACPI_IASL_SRCS),$(eval $(call acpi_iasl_table,$(f))))
# tests/matrix.txt's x86_64-4K-srat-* lines boot with them (-acpitable).
QEMU_PREREQS	+= $(ACPI_IASL_TABLES)
ACPI_IASL_TEMPLATES := $(ACPI_IASL_DIR)/iasl-templates/.stamp
$(ACPI_IASL_TEMPLATES):
	@mkdir -p $(dir $@)
	$(Q)echo "  IASL    $(dir $@) (iasl -T)"
	$(Q)cd $(dir $@) && for t in APIC SRAT SLIT; do \
		iasl -T $$t >/dev/null 2>&1 && iasl -ve -p $$t-tmp \
		$$(echo $$t | tr A-Z a-z).asl >/dev/null && \
		mv $$t-tmp.aml $$t || exit 1; done && touch .stamp

# x86 boot-info fixtures: generated from the memory maps in platforms.md.
BOOT_X86_FIXTURES := $(BOOT_FIXTURES)/x86/.stamp
$(BOOT_X86_FIXTURES): tests/fixtures/x86/gen_bootinfo.py
	@mkdir -p $(dir $@)
	$(Q)echo "  GEN     $(dir $@)"
	$(Q)python3 $< $(dir $@) && touch $@

# EFI memory maps: captured from OVMF and AAVMF runs (tests/fixtures/efi/
# *.bin), and hand-built ones from tests/fixtures/efi/gen_efimap.py.
BOOT_EFI_FIXTURES := $(BOOT_FIXTURES)/efi/.stamp
$(BOOT_EFI_FIXTURES): tests/fixtures/efi/gen_efimap.py
	@mkdir -p $(dir $@)
	$(Q)echo "  GEN     $(dir $@)"
	$(Q)python3 $< $(dir $@) && touch $@
BOOT_EFI_CAPTURED := $(sort $(wildcard tests/fixtures/efi/*.bin))

BOOT_DTB_FIXTURES := $(sort $(wildcard tests/fixtures/boards/*.dtb \
		     tests/fixtures/qemu/*.dtb.gz)) $(BOOT_DTS_DTBS)

# Suites take no arguments (TEST_SUITES is a list of NAME=COMMAND), so each
# check with arguments gets a two-line script in build/host/suites/.
BOOT_SUITE_DIR	:= $(HOST_DIR)/suites
$(BOOT_SUITE_DIR)/boot-dtb-fixtures: $(MEMMAP_ASAN) $(BOOT_DTB_FIXTURES) $(MAKEFILE_LIST)
	@mkdir -p $(dir $@)
	$(Q)printf '#!/bin/sh\nexec python3 %s %s %s\n' \
		'$(CURDIR)/tests/host/boot/dtb_expect.py' '$(CURDIR)/$(MEMMAP_ASAN)' \
		'$(addprefix $(CURDIR)/,$(BOOT_DTB_FIXTURES))' > $@ && chmod +x $@
$(BOOT_SUITE_DIR)/boot-x86-fixtures: $(MEMMAP_ASAN) $(BOOT_X86_FIXTURES) $(MAKEFILE_LIST)
	@mkdir -p $(dir $@)
	$(Q)printf '#!/bin/sh\nexec python3 %s %s %s\n' \
		'$(CURDIR)/tests/host/boot/x86_expect.py' '$(CURDIR)/$(MEMMAP_ASAN)' \
		'$(CURDIR)/$(BOOT_FIXTURES)/x86' > $@ && chmod +x $@
$(BOOT_SUITE_DIR)/memmap-cli: $(MEMMAP_ASAN) $(BOOT_DTS_DTBS) $(MAKEFILE_LIST)
	@mkdir -p $(dir $@)
	$(Q)printf '#!/bin/sh\nexec python3 %s %s %s\n' \
		'$(CURDIR)/tests/host/boot/memmap_cli.py' '$(CURDIR)/$(MEMMAP_ASAN)' \
		'$(CURDIR)/$(BOOT_FIXTURES)/dts' > $@ && chmod +x $@
$(BOOT_SUITE_DIR)/boot-efi-fixtures: $(MEMMAP_ASAN) $(BOOT_EFI_FIXTURES) $(BOOT_EFI_CAPTURED) $(MAKEFILE_LIST)
	@mkdir -p $(dir $@)
	$(Q)printf '#!/bin/sh\nexec python3 %s %s %s %s/*.bin\n' \
		'$(CURDIR)/tests/host/boot/efi_expect.py' '$(CURDIR)/$(MEMMAP_ASAN)' \
		'$(addprefix $(CURDIR)/,$(BOOT_EFI_CAPTURED))' \
		'$(CURDIR)/$(BOOT_FIXTURES)/efi' > $@ && chmod +x $@
$(BOOT_SUITE_DIR)/boot-acpi: $(HOST_DIR)/tests/boot-acpi $(ACPI_FIXTURES) $(MAKEFILE_LIST)
	@mkdir -p $(dir $@)
	$(Q)printf '#!/bin/sh\nexec %s %s\n' '$(CURDIR)/$<' \
		'$(CURDIR)/tests/fixtures/acpi' > $@ && chmod +x $@
$(BOOT_SUITE_DIR)/boot-srat-fixtures: $(MEMMAP_ASAN) $(ACPI_FIXTURES) $(MAKEFILE_LIST)
	@mkdir -p $(dir $@)
	$(Q)printf '#!/bin/sh\nexec python3 %s %s %s\n' \
		'$(CURDIR)/tests/host/boot/srat_expect.py' '$(CURDIR)/$(MEMMAP_ASAN)' \
		'$(addprefix $(CURDIR)/,$(ACPI_FIXTURES))' > $@ && chmod +x $@
$(BOOT_SUITE_DIR)/boot-acpi-machines: $(MEMMAP_ASAN) $(ACPI_IASL_TABLES) $(ACPI_IASL_TEMPLATES) $(BOOT_X86_FIXTURES) $(MAKEFILE_LIST)
	@mkdir -p $(dir $@)
	$(Q)printf '#!/bin/sh\nexec python3 %s %s %s %s\n' \
		'$(CURDIR)/tests/host/boot/acpi_expect.py' '$(CURDIR)/$(MEMMAP_ASAN)' \
		'$(CURDIR)/$(BOOT_FIXTURES)/x86/pvh-128M.bin' \
		'$(foreach d,$(ACPI_MACHINES),$(abspath $(d)))' > $@ && chmod +x $@
BOOT_SUITES	+= host-boot-dtb-fixtures=$(BOOT_SUITE_DIR)/boot-dtb-fixtures \
		   host-boot-srat-fixtures=$(BOOT_SUITE_DIR)/boot-srat-fixtures \
		   host-boot-acpi-machines=$(BOOT_SUITE_DIR)/boot-acpi-machines \
		   host-boot-x86-fixtures=$(BOOT_SUITE_DIR)/boot-x86-fixtures \
		   host-boot-efi-fixtures=$(BOOT_SUITE_DIR)/boot-efi-fixtures \
		   host-memmap-cli=$(BOOT_SUITE_DIR)/memmap-cli \
		   host-boot-acpi=$(BOOT_SUITE_DIR)/boot-acpi
BOOT_SUITE_SCRIPTS := $(BOOT_SUITE_DIR)/boot-dtb-fixtures \
		      $(BOOT_SUITE_DIR)/boot-srat-fixtures \
		      $(BOOT_SUITE_DIR)/boot-acpi-machines \
		      $(BOOT_SUITE_DIR)/boot-x86-fixtures \
		      $(BOOT_SUITE_DIR)/boot-efi-fixtures \
		      $(BOOT_SUITE_DIR)/memmap-cli \
		      $(BOOT_SUITE_DIR)/boot-acpi

# Fuzzers: clang, libFuzzer, ASan+UBSan; seeds from the fixtures.
FUZZ_EXTRA_acpi	:= tests/host/boot/acpi_snapshot.c
BOOT_FUZZERS	:= fdt multiboot2 pvh efi acpi
BOOT_CORPUS	:= $(HOST_DIR)/corpus

define boot_fuzzer
$(HOST_DIR)/fuzz/fuzz_$(1): $(call host_objs,fuzz,tests/host/boot/fuzz_$(1).c $(BOOT_HOST_SRCS) $(FUZZ_EXTRA_$(1))) $(HOST_DIR)/fuzz/libmm.a
	$(Q)echo "  FUZZLD  $$@"
	$(Q)$(FUZZ_CC) $(SAN_FLAGS) -fsanitize=fuzzer -o $$@ $$^
$(BOOT_SUITE_DIR)/fuzz-$(1): $(HOST_DIR)/fuzz/fuzz_$(1) $(BOOT_CORPUS)/.stamp $(MAKEFILE_LIST)
	@mkdir -p $$(dir $$@)
	$(Q)printf '#!/bin/sh\nexec %s fuzz-%s %s %s %s\n' \
		'$(CURDIR)/tests/host/fuzz-ktap.sh' '$(1)' '$(CURDIR)/$$<' \
		'$(FUZZ_BRIEF_SECONDS)' '$(CURDIR)/$(BOOT_CORPUS)/$(1)' > $$@ && chmod +x $$@
BOOT_SUITES += host-fuzz-$(1)=$(BOOT_SUITE_DIR)/fuzz-$(1)
BOOT_SUITE_SCRIPTS += $(BOOT_SUITE_DIR)/fuzz-$(1)
FUZZ_TARGETS += fuzz-boot-$(1)
.PHONY: fuzz-boot-$(1)
fuzz-boot-$(1): $(HOST_DIR)/fuzz/fuzz_$(1) $(BOOT_CORPUS)/.stamp
	tests/host/fuzz-ktap.sh fuzz-$(1) $$< $(FUZZ_SECONDS) $(BOOT_CORPUS)/$(1)
endef
$(foreach f,$(BOOT_FUZZERS),$(eval $(call boot_fuzzer,$(f))))

# Seed corpora: every DTB fixture, every x86, EFI and ACPI fixture (copied,
# so that the fuzzer may add to its corpus without touching tests/fixtures),
# and each ACPI machine's tables as a snapshot.
$(BOOT_CORPUS)/.stamp: $(BOOT_DTB_FIXTURES) $(BOOT_X86_FIXTURES) \
		       $(BOOT_EFI_FIXTURES) $(BOOT_EFI_CAPTURED) $(ACPI_FIXTURES) \
		       $(ACPI_IASL_TABLES) $(ACPI_IASL_TEMPLATES) \
		       tests/fixtures/acpi/machine_snapshot.py
	$(Q)echo "  CORPUS  $(BOOT_CORPUS)"
	$(Q)rm -rf $(BOOT_CORPUS) && mkdir -p $(foreach f,$(BOOT_FUZZERS),$(BOOT_CORPUS)/$(f))
	$(Q)for f in $(filter %.dtb,$(BOOT_DTB_FIXTURES)); do cp $$f $(BOOT_CORPUS)/fdt/; done
	$(Q)for f in $(filter %.gz,$(BOOT_DTB_FIXTURES)); do \
		zcat $$f > $(BOOT_CORPUS)/fdt/$$(basename $$f .gz); done
	$(Q)cp $(BOOT_FIXTURES)/x86/mb2-*.bin $(BOOT_CORPUS)/multiboot2/
	$(Q)cp $(BOOT_FIXTURES)/x86/pvh-*.bin $(BOOT_CORPUS)/pvh/
	$(Q)cp $(BOOT_FIXTURES)/efi/*.bin $(BOOT_EFI_CAPTURED) $(BOOT_CORPUS)/efi/
	$(Q)cp $(ACPI_FIXTURES) $(BOOT_CORPUS)/acpi/
	$(Q)for d in $(patsubst %/,%,$(ACPI_MACHINES)); do \
		python3 tests/fixtures/acpi/machine_snapshot.py $$d \
		$(BOOT_CORPUS)/acpi/machine-$$(basename $$d).bin || exit 1; done
	$(Q)touch $@

-include $(patsubst %.o,%.d,$(call host_objs,plain,$(MEMMAP_SRCS)))
-include $(patsubst %.o,%.d,$(call host_objs,asan,$(MEMMAP_SRCS) $(BOOT_TEST_LIB) \
	 $(wildcard tests/host/boot/test_*.c) tests/host/boot/acpi_snapshot.c))
-include $(patsubst %.o,%.d,$(call host_objs,fuzz,$(BOOT_HOST_SRCS) \
	 $(wildcard tests/host/boot/fuzz_*.c) tests/host/boot/acpi_snapshot.c))

# test-host runs HOST_SUITES, the runner TEST_SUITES: both get these.
HOST_SUITES	+= $(BOOT_SUITES)
TEST_SUITES	+= $(BOOT_SUITES)
TEST_PREREQS	+= boot-host-tests

.PHONY: boot-host-tests check-dtb check-acpi fuzz

host: $(MEMMAP)

boot-host-tests: $(MEMMAP) $(BOOT_TEST_BINS) $(HOST_DIR)/tests/boot-acpi $(BOOT_SUITE_SCRIPTS)

host-tests: boot-host-tests

#= DTB=file...   make check-dtb: the device tree blobs to check
## check-dtb: DTB=file... check memmap on any device tree against dtc
check-dtb: $(MEMMAP_ASAN)
	$(Q)test -n "$(DTB)" || { echo "usage: make check-dtb DTB=file.dtb..." >&2; exit 2; }
	$(Q)python3 tests/host/boot/dtb_expect.py $(MEMMAP_ASAN) $(DTB)

#= ACPI=dir...   make check-acpi: folders of ACPI tables (APIC, SRAT, SLIT)
## check-acpi: ACPI=dir... check memmap --madt on a machine's tables against iasl
check-acpi: $(MEMMAP_ASAN) $(BOOT_X86_FIXTURES)
	$(Q)test -n "$(ACPI)" || { echo "usage: make check-acpi ACPI=dir... (a folder with APIC, and SRAT and SLIT if any, as /sys/firmware/acpi/tables)" >&2; exit 2; }
	$(Q)python3 tests/host/boot/acpi_expect.py $(MEMMAP_ASAN) \
		$(BOOT_FIXTURES)/x86/pvh-128M.bin $(ACPI)

fuzz: $(FUZZ_TARGETS)
