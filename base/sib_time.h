/*
 * sib_time.h -- Sibyl's one type of simulated time (internal).
 *
 * Every library below the command line counts simulated time in
 * picoseconds, as a signed 64-bit integer: about 106 days at most, exact
 * sums, no rounding of a double.  The trace format's public header keeps
 * its own name for the same type (sibt_time, tracefmt/sibyl_trace.h),
 * since it stands alone; tests/test_units.c checks that both are one type.
 */
#ifndef SIBYL_SIB_TIME_H
#define SIBYL_SIB_TIME_H

#include <stdint.h>

typedef int64_t sib_ps;         /* picoseconds */

#define SIB_PS_PER_S INT64_C(1000000000000)

#endif /* SIBYL_SIB_TIME_H */
