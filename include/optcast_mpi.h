/*
 * optcast_mpi.h - the MPI transport: optcast's collectives over MPI
 * point-to-point messages (docs/MPI.md).
 *
 *   MPI_Comm dup;
 *   oc_transport tp;
 *   oc_comm *c;
 *   MPI_Comm_dup(MPI_COMM_WORLD, &dup);          // a private communicator
 *   MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
 *   oc_mpi_transport(dup, &tp);
 *   oc_comm_new(&c, &tp, NULL);
 *   oc_coll_bcast(c, buf, n, OC_DOUBLE, 0);       // every rank
 *   oc_comm_free(c);
 *   MPI_Comm_free(&dup);
 *
 * The transport uses the communicator as given: pass a private duplicate
 * (optcast's tags would otherwise mix with the program's own messages),
 * keep it alive until the oc_comm is freed, and set MPI_ERRORS_RETURN on
 * it if MPI errors (a truncated message, a dead peer) are to come back as
 * optcast errors rather than abort.  Every MPI call goes through its PMPI_
 * name, so the same code runs inside the PMPI interposer
 * (build/liboptcast_mpi.so) without calling itself.
 */
#ifndef OPTCAST_MPI_H
#define OPTCAST_MPI_H

#include <mpi.h>

#include "optcast_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fill *out with an endpoint on comm: rank and size from the communicator,
 * tag_max from its MPI_TAG_UB attribute.  Messages are MPI_Isend /
 * MPI_Irecv of the element's datatype (oc_elem.handle), or, for an element
 * without one (handle NULL: oc_elem_builtin's, which oc_coll_* use), of
 * extent bytes per element as MPI_BYTE (a homogeneous machine); wait polls
 * MPI_Test (yielding the core between polls for 200 us, then sleeping 1 us
 * backing off to 50 us) until the request completes or the deadline passes
 * (OC_ETIMEDOUT); a receive's *got is MPI_Get_count.  MPI_ERR_TRUNCATE
 * is OC_EMISMATCH, any other MPI error OC_ETRANSPORT.  Nothing is
 * allocated: there is nothing to free.  OC_EINVAL for MPI_COMM_NULL or an
 * inter-communicator. */
int oc_mpi_transport(MPI_Comm comm, oc_transport *out);

/* Fill *el for any committed MPI datatype: extent and true extent from the
 * datatype, handle = the datatype; with op != MPI_OP_NULL, combine runs
 * MPI_Reduce_local(in, inout, n, dt, op) and commutative comes from
 * MPI_Op_commutative.  op MPI_OP_NULL: data movement only.  The datatype
 * and operator must stay valid while el is used.  OC_EINVAL for
 * MPI_DATATYPE_NULL or a negative extent, OC_ETRANSPORT when MPI refuses
 * the datatype or operator. */
int oc_mpi_elem(oc_elem *el, MPI_Datatype dt, MPI_Op op);

#ifdef __cplusplus
}
#endif
#endif /* OPTCAST_MPI_H */
