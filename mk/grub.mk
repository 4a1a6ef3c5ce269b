# grub.mk - BOOT=grub: boot through GRUB from a rescue ISO, as a PC would.
#
#   make run ARCH=x86_64 BOOT=grub
#
# The firmware (SeaBIOS) boots GRUB from the ISO, and GRUB loads the same
# ELF with its multiboot2 command. A target that has this path sets, in its
# arch.mk, QEMU_GRUB_ARGS (the QEMU options that boot the ISO) and puts the
# ISO in ARCH_IMAGES (arch/x86_64/arch.mk builds it with grub-mkrescue).

BOOTS		+= $(if $(QEMU_GRUB_ARGS),grub)

ifeq ($(BOOT),grub)
QEMU_KERNEL_ARGS = $(QEMU_GRUB_ARGS)
endif
