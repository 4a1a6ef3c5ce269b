/*
 * host.h - what the host fake arch offers host tests and tools beyond the
 * arch contract.
 */
#ifndef ARCH_HOST_HOST_H
#define ARCH_HOST_HOST_H

#include <lib/types.h>

/* Keep a copy of console output in memory; @silence also stops echoing it. */
void host_console_capture_start(bool silence);
void host_console_capture_stop(void);
const char *host_console_captured(void);
bool host_console_contains(const char *needle);
/* Drop console output (tools that print only their own results). */
void host_console_set_quiet(bool silence);
/*
 * The console writes to standard error (memmap's warnings go there); a
 * test program that prints KTAP through lib/ktap.c moves it to standard
 * output, beside its own diagnostics.
 */
void host_console_to_stdout(void);

/*
 * host_set_phys_offset - make physical address P live at host address
 * P + @offset from now on (0, the default, is the identity).
 */
void host_set_phys_offset(uintptr_t offset);

#endif /* ARCH_HOST_HOST_H */
