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
/*
 * smp_stop_wait - a CPU that has just come online waits out a
 * smp_stop_others() in progress (call.c), which did not count it.
 */
void smp_stop_wait(void);
/*
 * smp_cpu_wait_unheld - on CPU @cpu, before it touches its per-CPU data
 * again: wait while a sender holds it (call.c; ARCH_HAS_CPU_HOLD), with
 * acquire, so that what the sender did on its behalf is seen. Reaches
 * the CPU's presence through per_cpu_ptr(), not this CPU's offset.
 */
void smp_cpu_wait_unheld(unsigned int cpu);
/* Whether an on_each_cpu() request waits for this CPU (call.c). */
bool smp_call_pending(void);

#endif /* SMP_INTERNAL_H */
