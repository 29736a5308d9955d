/* bw_hook: test-only fault injection (tests/test_faults.c, tools/oclgrind.sh).
 *
 * Compiled in only when the build has BWLAB_FAULT_HOOKS (meson option
 * fault_hooks: on by default except in release builds); otherwise every
 * function here answers "no fault" and the environment is never read.
 * With hooks, $BWLAB_TEST_FAULTS is a ';'-separated list of entries
 *   POINT[=MATCH][@N]
 * POINT names the place (below); MATCH, when given, must occur in the
 * pattern spec at hand; N is the entry's number (0 when absent). Points:
 *   build=SPEC          building SPEC's kernel fails (BW_E_BUILD)
 *   alloc=NAME          the device refuses device buffer NAME (src, dst, trace)
 *   fill=NAME           clEnqueueFillBuffer fails on buffer NAME (CL_INVALID_OPERATION):
 *                       ocl_buffer_fill writes the pattern from the host
 *   validate=SPEC       SPEC's kernel fails validation (BW_E_VALIDATION)
 *   launch=SPEC@N       SPEC's timed launches fail after N samples (a device error)
 *   hold=SPEC           SPEC never counts as stable: it is timed until the budget
 *                       ends or a signal stops the run (a run that stays alive);
 *                       hold=tune: tune's finals never count as stable either
 *   signal=PHASE@SIG    signal SIG is raised once when PHASE begins: building,
 *                       validating, measuring, writing, calibrating (run, roofline, tune);
 *                       roofline, roof-rounds (the roofline's timing rounds);
 *                       tuning, tune-finals; replacing (a file's temp copy exists,
 *                       any command) (no phase's name holds another's)
 *   bank_groups@N       bank patterns launch N work-groups (BENCH_BANK_GROUPS)
 *   lib_alloc@N         the allocations of a library bwlab hands its allocator to
 *                       (jansson) fail from the (N+1)th on: out of memory, on cue
 *   scalar_form         bwlab run builds the scalar kernel form on any device
 *   fit_rate@N          the working set's calibration copy reads N MB/s (bench_fit)
 *   fit_fill@N          and its buffers fill at N MB/s
 *   plan_slow=SPEC@N    the run's plan takes SPEC's launches as N ms each (its real
 *                       launches, and the estimate it is taken up by, stay its own)
 *   noisy=SPEC@N        the stopping rule and the replan see SPEC's median with an
 *                       N% relative standard error (a pattern too noisy for the rule)
 *   twin_short=SPEC@N   SPEC's twin reads as too short to resolve while its slice
 *                       can still grow (a host on which the timed slice is too small);
 *                       with N > 0 also its first set of rounds at the cache's N
 *                       (a busy host: the set is measured once more)
 *   slow=SPEC@N         SPEC's launches in its own slot read N% slower (never in a
 *                       reference's control slot: a disturbance the control catches)
 *   form_tie=SPEC       SPEC's first kernel-form calibration reads both forms as the
 *                       slower one (a contended host's first rounds): the tie keeps
 *                       the form timed first, and the other comes back for a recheck
 *   probe_llc@N         the probe's ladders take the last-level cache as N MiB, whatever
 *                       the device and the host report: a test's probe costs the same
 *                       on a host that reports a 300 MiB cache as on one with 32 MiB
 * Owner of nothing: the environment is read on each call (tests only). */
#ifndef BW_HOOK_H
#define BW_HOOK_H

#include <stdint.h>

/* 1 when hooks are compiled in. */
int bw_hook_enabled(void);

/* Whether an entry POINT applies to `subject` (its MATCH occurs in it, or
 * it has none; subject NULL matches only entries without MATCH). When it
 * does and n is not NULL, *n receives the entry's number. */
int bw_hook_fault(const char *point, const char *subject, int64_t *n);

/* Raises the signal of a "signal=PHASE@SIG" entry the first time PHASE
 * begins in this process. */
void bw_hook_phase(const char *phase);

#endif
