# packages.mk - the Debian packages the riscv64 target needs to build and
# boot. Read for every target (mk/deps.mk: make test and make deps install
# all of them); its arch.mk takes its own list from here.

PACKAGES_riscv64 := gcc-riscv64-linux-gnu binutils-riscv64-linux-gnu \
		    qemu-system-misc opensbi
