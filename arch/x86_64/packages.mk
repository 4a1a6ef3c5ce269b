# packages.mk - the Debian packages the x86_64 target needs to build and
# boot. Read for every target (mk/deps.mk: make test and make deps install
# all of them); its arch.mk takes its own list from here.

# The host's gcc builds it on an x86_64 host, Debian's cross gcc elsewhere
# (arch.mk's CROSS_COMPILE makes the same choice).
PACKAGES_x86_64	:= qemu-system-x86 grub-pc-bin grub-common xorriso mtools ovmf \
		   grub-efi-amd64-bin \
		   $(if $(filter x86_64,$(shell uname -m)),gcc binutils,\
		   gcc-x86-64-linux-gnu binutils-x86-64-linux-gnu)
