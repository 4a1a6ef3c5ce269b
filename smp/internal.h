/*
 * internal.h - what the files of smp/ (and arch/host/smp.c, which plays
 * smp_init()'s part on the host) share, beyond include/smp/smp.h.
 */
#ifndef SMP_INTERNAL_H
#define SMP_INTERNAL_H

#include <lib/types.h>

/* Set or clear CPU @cpu's online bit (online.c). */
void smp_set_online(unsigned int cpu, bool online);
/* Record CPU @cpu's hwid, before it runs. */
void smp_set_hwid(unsigned int cpu, unsigned long hwid);

/*
 * smp_call_poll - run this CPU's pending on_each_cpu() request, if any
 * (call.c). Secondary CPUs call it from their idle loop.
 * Return: true if a request ran.
 */
bool smp_call_poll(void);

#endif /* SMP_INTERNAL_H */
