# selftest.mk - what the in-QEMU selftests need besides the image.
#
# An initrd for the matrix lines that pass one: 3 MiB and 123 bytes of a
# fixed text, so that its end is not page aligned and its checksum is the
# same on every machine. The guest checksums it before the hand-off and
# again with all memory handed out and written
# (tests/selftest/integrity.c: integrity_boot_modules).
#
# riscv64 and x86_64 (PVH) take it with QEMU's -initrd. aarch64's QEMU
# loads an initrd only for a Linux Image, not for buddyboot's ELF, so the
# aarch64 line gives QEMU's own virt DTB (dumped for that machine, 256M,
# cortex-a57) with /chosen linux,initrd-start/end added, and puts the file
# at that address with the generic loader device:
#   -dtb $(SELFTEST_A64_DTB) -device loader,file=$(SELFTEST_INITRD),
#        addr=$(SELFTEST_A64_INITRD_AT),force-raw=on

SELFTEST_INITRD	:= $(BUILD_ROOT)/selftest/initrd.img

$(SELFTEST_INITRD): mk/selftest.mk
	@mkdir -p $(dir $@)
	$(Q)echo "  GEN     $@"
	$(Q)yes 'buddyboot selftest initrd: nothing may write here' | \
		head -c $$((3 * 1024 * 1024 + 123)) > $@

SELFTEST_A64_DTB	:= $(BUILD_ROOT)/selftest/aarch64-virt-256M-initrd.dtb
SELFTEST_A64_INITRD_AT	:= 0x48000000

$(SELFTEST_A64_DTB): $(SELFTEST_INITRD)
	$(Q)echo "  DTB     $@"
	$(Q)qemu-system-aarch64 -M virt,dumpdtb=$@.tmp -cpu cortex-a57 -m 256M \
		-nic none -nographic >/dev/null 2>&1 || test -s $@.tmp
	$(Q)fdtput -t x $@.tmp /chosen linux,initrd-start \
		0 $(SELFTEST_A64_INITRD_AT)
	$(Q)fdtput -t x $@.tmp /chosen linux,initrd-end 0 $$(printf '%#x' \
		$$(($(SELFTEST_A64_INITRD_AT) + $$(stat -c %s $<))))
	$(Q)mv $@.tmp $@

QEMU_PREREQS	+= $(SELFTEST_INITRD) $(SELFTEST_A64_DTB)

# Machines the boot must refuse, for the runner's own test
# (tests/runner/check_runner.py): QEMU's aarch64 virt DTB for 128M, edited
# with dtc. "no-memory" adds a no-map /reserved-memory region over all of
# RAM; "many-regions" adds 1100 /memreserve/ entries, more ranges than the
# boot-info reader holds (BOOT_MAX_RANGES, 1024): the map is refused whole,
# never read in part.
# Each boot must stop with one "cannot boot: ..." line and the fail status.
SELFTEST_REFUSE_DTB	= $(BUILD_ROOT)/selftest/aarch64-virt-128M-$(1).dtb
SELFTEST_REFUSALS	:= no-memory many-regions
refuse_head_no-memory	:= :
refuse_tail_no-memory	:= printf '%s\n' '/ {' \
	'reserved-memory { \#address-cells = <2>; \#size-cells = <2>; ranges;' \
	'all@40000000 { reg = <0 0x40000000 0 0x8000000>; no-map; }; }; };'
refuse_head_many-regions := i=0; while [ $$i -lt 1100 ]; do \
	printf '/memreserve/ %\#x 0x1000;\n' $$((0x44000000 + i * 0x2000)); \
	i=$$((i + 1)); done
refuse_tail_many-regions := :

$(BUILD_ROOT)/selftest/aarch64-virt-128M-%.dtb: mk/selftest.mk
	@mkdir -p $(dir $@)
	$(Q)echo "  DTB     $@"
	$(Q)qemu-system-aarch64 -M virt,dumpdtb=$@.dtb -cpu cortex-a57 -m 128M \
		-nic none -nographic >/dev/null 2>&1 || test -s $@.dtb
	$(Q){ echo '/dts-v1/;'; $(refuse_head_$*); \
	      dtc -q -I dtb -O dts $@.dtb | sed 1d; $(refuse_tail_$*); \
	 } | dtc -q -I dts -O dtb -o $@.tmp - && rm -f $@.dtb && mv $@.tmp $@

# For check_runner.py: the DTB of each refusal, one "name path" a line.
print-refusal-dtbs:
	$(foreach r,$(SELFTEST_REFUSALS),$(info $(r) $(call SELFTEST_REFUSE_DTB,$(r))))
	@:

# The aarch64 spin-table line (tests/selftest/arch/aarch64/selftest_smp.c:
# aarch64_spin_table_start): QEMU's virt device tree for 2 CPUs at EL2,
# booted on a machine with 3, so that one CPU is there, off, and listed
# nowhere; the selftest starts it as spin-table firmware would. /chosen
# buddyboot,selftest-spin-table-cpu names that CPU's MPIDR: with it the
# case must pass, without it (every other line) it skips. Packed with
# dtc: QEMU did not hand its own 1 MiB padded dump to the kernel (x0 = 0
# and nothing at the start of RAM), the packed blob it does.
SELFTEST_A64_SPIN_DTB	:= $(BUILD_ROOT)/selftest/aarch64-virt-el2-128M-2cpus.dtb

$(SELFTEST_A64_SPIN_DTB): mk/selftest.mk
	@mkdir -p $(dir $@)
	$(Q)echo "  DTB     $@"
	$(Q)qemu-system-aarch64 -M virt,virtualization=on,dumpdtb=$@.tmp \
		-cpu cortex-a57 -m 128M -smp 2 -nic none -nographic >/dev/null 2>&1 || \
		test -s $@.tmp
	$(Q)dtc -q -I dtb -O dtb -o $@.packed $@.tmp && rm -f $@.tmp
	$(Q)fdtput -t x $@.packed /chosen buddyboot,selftest-spin-table-cpu 2
	$(Q)mv $@.packed $@

QEMU_PREREQS	+= $(SELFTEST_A64_SPIN_DTB)

# A GIC where nothing answers (tests/selftest/arch/aarch64/selftest_gic.c):
# QEMU's virt tree for 2 CPUs with the distributor moved to 0xb000000,
# between the virtio-mmio transports and the platform bus, where QEMU
# aborts a read. The boot must say so and go on with idle CPUs spinning.
SELFTEST_A64_GIC_DTB	:= $(BUILD_ROOT)/selftest/aarch64-virt-128M-2cpus-gic-nowhere.dtb

$(SELFTEST_A64_GIC_DTB): mk/selftest.mk
	@mkdir -p $(dir $@)
	$(Q)echo "  DTB     $@"
	$(Q)qemu-system-aarch64 -M virt,dumpdtb=$@.tmp -cpu cortex-a57 -m 128M \
		-smp 2 -nic none -nographic >/dev/null 2>&1 || test -s $@.tmp
	$(Q)dtc -q -I dtb -O dtb -o $@.packed $@.tmp && rm -f $@.tmp
	$(Q)fdtput -t x $@.packed /intc@8000000 reg \
		0 0xb000000 0 0x10000 0 0x8010000 0 0x10000
	$(Q)fdtput -t s $@.packed /chosen buddyboot,selftest-gic-unusable \
		"distributor at 0xb000000"
	$(Q)mv $@.packed $@

QEMU_PREREQS	+= $(SELFTEST_A64_GIC_DTB)

# A NUMA node without CPUs on riscv64: QEMU 7.2's virt refuses a -numa
# node without harts ("discontinuous hartids in socket1"), but a board's
# firmware may well describe one. So the build edits QEMU's own tree for
# -m 256M -smp 2 with fdtput, as firmware would: /memory becomes two
# memory nodes, 98 MiB in node 0 (a boundary not aligned to the top
# order) and 158 MiB in node 1, both harts are in node 0, and a
# /distance-map (numa-distance-map-v1, boot/fdt_numa.c) gives 25 between
# the two. QEMU's -dtb uses it as it is. The line that boots it
# (riscv64-4K-numa2-cpuless) states the same topology in EXPECT_NUMA for
# the runner. Packed with dtc: QEMU's dump is padded to 1 MiB.
SELFTEST_RV_CPULESS_DTB	:= $(BUILD_ROOT)/selftest/riscv64-virt-256M-smp2-cpuless.dtb
rv_cpuless_node0	:= $$((98 << 20))
rv_cpuless_node1	:= $$((158 << 20))

$(SELFTEST_RV_CPULESS_DTB): mk/selftest.mk
	@mkdir -p $(dir $@)
	$(Q)echo "  DTB     $@"
	$(Q)qemu-system-riscv64 -M virt,dumpdtb=$@.dump -m 256M -smp 2 \
		-nic none -nographic >/dev/null 2>&1 || test -s $@.dump
	$(Q)dtc -q -I dtb -O dtb -o $@.tmp $@.dump && rm -f $@.dump
	$(Q)fdtput -t x $@.tmp /memory@80000000 reg \
		0 0x80000000 0 $$(printf '%#x' $(rv_cpuless_node0))
	$(Q)fdtput -t u $@.tmp /memory@80000000 numa-node-id 0
	$(Q)n1=$$(printf '%x' $$((0x80000000 + $(rv_cpuless_node0)))); \
	 fdtput -c $@.tmp /memory@$$n1 && \
	 fdtput -t s $@.tmp /memory@$$n1 device_type memory && \
	 fdtput -t x $@.tmp /memory@$$n1 reg \
		0 0x$$n1 0 $$(printf '%#x' $(rv_cpuless_node1)) && \
	 fdtput -t u $@.tmp /memory@$$n1 numa-node-id 1
	$(Q)fdtput -t u $@.tmp /cpus/cpu@0 numa-node-id 0
	$(Q)fdtput -t u $@.tmp /cpus/cpu@1 numa-node-id 0
	$(Q)fdtput -c $@.tmp /distance-map
	$(Q)fdtput -t s $@.tmp /distance-map compatible numa-distance-map-v1
	$(Q)fdtput -t u $@.tmp /distance-map distance-matrix \
		0 0 10  0 1 25  1 0 25  1 1 10
	$(Q)mv $@.tmp $@

QEMU_PREREQS	+= $(SELFTEST_RV_CPULESS_DTB)
