/*
 * cpu_hold.h - arch/host's own: the bookkeeping that lets a sender hold
 * a host thread blocked outside buddyboot (cpu_hold.c).
 */
#ifndef ARCH_HOST_CPU_HOLD_H
#define ARCH_HOST_CPU_HOLD_H

/* This thread's CPU number while it has one, else -1 (smp.c). */
int host_cpu_of_thread(void);

/* On a thread that has just become CPU @cpu, its hwid (its tid) set,
 * before it is online. */
void host_cpu_hold_register(unsigned int cpu);
/* On CPU @cpu's thread once it is away for good (its exit). */
void host_cpu_hold_forget(unsigned int cpu);

/*
 * Around each call of buddyboot's own that may block in the kernel (a
 * console write, a mutex, a look at /proc): a thread asleep between
 * these is in buddyboot's code, and no sender holds it.
 */
void host_blocking_begin(void);
void host_blocking_end(void);

#endif /* ARCH_HOST_CPU_HOLD_H */
