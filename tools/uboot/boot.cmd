# boot.cmd - U-Boot boots buddyboot from the partition it found this on.
#
# mkimage wraps this file into boot.scr (mk/uboot.mk). U-Boot's distro boot
# (the default bootcmd, "run distro_bootcmd") scans the first partition of
# each disk for /boot.scr and runs it with devtype, devnum and
# distro_bootpart naming that partition, so nobody types at the prompt.
#
# 1. The device tree: the one U-Boot runs on (fdtcontroladdr: QEMU's, or
#    the board's), copied to fdt_addr_r with 4 KiB to spare. U-Boot's QEMU
#    arm64 build has no fdt_addr_r, only fdt_addr: the start of RAM, where
#    QEMU left its DTB, unused once U-Boot relocated its own copy.
# 2. A /memreserve/ entry for the memory U-Boot loaded this script to
#    (scriptaddr, filesize bytes). U-Boot's booti adds no /memreserve/ of
#    its own (2023.01: the device tree it hands over has an empty
#    reservation block); this one proves that an entry passed through
#    U-Boot is honoured: the boot log lists it as "/memreserve/ #0", and
#    the selftests check that no page handed out overlaps it.
# 3. The Image to kernel_addr_r, and booti: the Linux boot protocol, with
#    the device tree's address in x0 (arm64) or a1 (riscv64).
#
# Each step runs only when the one before it worked (U-Boot's shell reads
# no line continuations, hence the nesting): a failure ends the script
# with its own message and U-Boot goes on to its next boot target, so the
# kernel never starts half prepared.
if test -z "${fdt_addr_r}"; then
	setenv fdt_addr_r ${fdt_addr}
fi
if fdt addr ${fdtcontroladdr} && fdt header get fdt_size totalsize; then
	setexpr fdt_size ${fdt_size} + 0x1000
	if fdt move ${fdtcontroladdr} ${fdt_addr_r} ${fdt_size} && fdt rsvmem add ${scriptaddr} ${filesize}; then
		if load ${devtype} ${devnum}:${distro_bootpart} ${kernel_addr_r} /Image; then
			booti ${kernel_addr_r} - ${fdt_addr_r}
		fi
	fi
fi
echo "boot.scr: buddyboot was not started (the error is above)"
