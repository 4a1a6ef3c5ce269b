# packages.mk - the Debian packages the aarch64 target needs to build and
# boot. Read for every target (mk/deps.mk: make test and make deps install
# all of them); its arch.mk takes its own list from here.

PACKAGES_aarch64 := gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu \
		    qemu-system-arm qemu-efi-aarch64
