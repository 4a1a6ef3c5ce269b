# selftest.mk - what the in-QEMU selftests need besides the image.
#
# An initrd for the matrix lines that pass one (-initrd): 3 MiB and 123
# bytes of a fixed text, so that its end is not page aligned and its
# checksum is the same on every machine. The guest checksums it before the
# hand-off and again with all memory handed out and written
# (tests/selftest/integrity.c: integrity_boot_modules).

SELFTEST_INITRD	:= $(BUILD_ROOT)/selftest/initrd.img

$(SELFTEST_INITRD): mk/selftest.mk
	@mkdir -p $(dir $@)
	$(Q)echo "  GEN     $@"
	$(Q)yes 'buddyboot selftest initrd: nothing may write here' | \
		head -c $$((3 * 1024 * 1024 + 123)) > $@

TEST_PREREQS	+= $(SELFTEST_INITRD)
