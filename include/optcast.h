/*
 * optcast.h - optimal collective communication schedules: public C API.
 *
 * Data flow: parameters (oc_params) -> reach function (oc_reach: P(t), B(P))
 * -> algorithm (oc_bcast_*: a rank's own plan, or the global schedule)
 * -> {verifier (oc_verify), renderers (command line)}.
 *
 * Conventions
 *  - Every function that can fail returns an oc_err (0 = OC_OK, negative =
 *    error); results come back through out-parameters.  oc_err_name() and
 *    oc_strerror() describe a code.  Nothing is "fixed up" silently: a bad
 *    argument is an error.
 *  - All times are int64_t in *model units*: for LogP the parameters' own
 *    unit; for the postal model with latency lambda = p/q, units of 1/q
 *    (so L = p, o = 0, g = q).  oc_params.unit says how many units make one
 *    time unit of the user's scale; printing divides by it exactly.
 *  - No global state.  Objects are owned by the caller and freed with the
 *    matching *_free / *_destroy function; all functions are reentrant and a
 *    const object may be shared between threads.
 *  - Arithmetic never wraps: counts saturate at OC_SAT and parameters are
 *    range-checked (OC_PARAM_MAX, OC_PROCS_MAX).
 */
#ifndef OPTCAST_H
#define OPTCAST_H

/* The stable API, in layers (each header includes the ones it needs). */
#include "optcast/version.h"   /* the release: OC_VERSION_STRING, oc_version() */
#include "optcast/core.h"      /* errors, limits, parameters, reach, numbers */
#include "optcast/sched.h"     /* the schedule and its CSV form              */
#include "optcast/plan.h"      /* the planners                               */
#include "optcast/libmodels.h" /* the MPI libraries' algorithms              */
#include "optcast/verify.h"    /* the verifiers                              */
#include "optcast/problem.h"   /* every planner behind one call              */
/* Not API-stable: exhaustive searches and figure reconstructions. */
#include "optcast/research.h"

#endif /* OPTCAST_H */
